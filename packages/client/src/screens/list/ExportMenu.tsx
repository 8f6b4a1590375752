/**
 * A list's export: a menu of the CSV in words (labels, names, formatted money and dates) and the CSV
 * of raw values (stored values and ids), both of the rows the list's filters select (decision 0065).
 */
import { Button, Menu } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useT } from '../../i18n/I18nProvider';

/**
 * @example <ExportMenu url={(format) => http.url(entity.resource, { ...query, format })} />
 */
export function ExportMenu({ url }: { url: (format: 'csv' | 'csv-raw') => string }) {
  const t = useT();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default" leftSection={<IconDownload size={16} aria-hidden />}>
          {t('list.exportCsv')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component="a" href={url('csv')} download>
          {t('list.csv')}
        </Menu.Item>
        <Menu.Item component="a" href={url('csv-raw')} download>
          {t('list.csvRaw')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
