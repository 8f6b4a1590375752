/**
 * The icons a spec may name in `nav` (`icon: cash`). A fixed set keeps the bundle small: an unknown
 * name gets the generic icon, and `ninefold check` documents the names.
 */
import {
  IconBell,
  IconBook,
  IconBriefcase,
  IconBuilding,
  IconCalendar,
  IconCar,
  IconCash,
  IconChartBar,
  IconChecklist,
  IconClipboard,
  IconFileText,
  IconFolder,
  IconHeart,
  IconHome,
  IconInbox,
  IconLayoutList,
  IconLifebuoy,
  IconList,
  IconMail,
  IconMap,
  IconMessages,
  IconPackage,
  IconPhone,
  IconPlus,
  IconReceipt,
  IconSearch,
  IconSettings,
  IconShoppingCart,
  IconStar,
  IconTable,
  IconTag,
  IconTicket,
  IconTruck,
  IconUser,
  IconUsers,
  IconWallet,
} from '@tabler/icons-react';

type Icon = typeof IconList;

export const NAV_ICONS: Readonly<Record<string, Icon>> = {
  bell: IconBell,
  book: IconBook,
  briefcase: IconBriefcase,
  building: IconBuilding,
  calendar: IconCalendar,
  car: IconCar,
  cash: IconCash,
  chart: IconChartBar,
  checklist: IconChecklist,
  clipboard: IconClipboard,
  file: IconFileText,
  folder: IconFolder,
  heart: IconHeart,
  home: IconHome,
  inbox: IconInbox,
  list: IconList,
  lifebuoy: IconLifebuoy,
  mail: IconMail,
  map: IconMap,
  messages: IconMessages,
  package: IconPackage,
  phone: IconPhone,
  plus: IconPlus,
  receipt: IconReceipt,
  search: IconSearch,
  settings: IconSettings,
  cart: IconShoppingCart,
  star: IconStar,
  table: IconTable,
  tag: IconTag,
  ticket: IconTicket,
  truck: IconTruck,
  user: IconUser,
  users: IconUsers,
  wallet: IconWallet,
};

export function NavIcon({ name }: { name: string | null }) {
  const Icon =
    (name !== null && Object.hasOwn(NAV_ICONS, name) ? NAV_ICONS[name] : undefined) ?? IconLayoutList;
  return <Icon size={18} stroke={1.6} aria-hidden />;
}
