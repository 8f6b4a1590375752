/**
 * The few words the server itself writes into what it gives a person (decision 0067): a CSV's fixed
 * headers and yes/no, a figure's "(none)" group and week buckets, the label of a record the reader
 * may not see. In each of the app's languages, as the client's catalogues say them; English for any
 * other.
 */
import { languageOf } from '@ninefold/model';

export interface ServerWords {
  readonly yes: string;
  readonly no: string;
  /** A ref to a record the reader may not see. */
  readonly hidden: string;
  /** The group of rows without a value. */
  readonly none: string;
  readonly id: string;
  readonly state: string;
  readonly created: string;
  readonly updated: string;
  /** A week bucket by its first day. */
  weekOf(day: string): string;
}

const ENGLISH: ServerWords = {
  yes: 'Yes',
  no: 'No',
  hidden: '(hidden)',
  none: '(none)',
  id: 'Id',
  state: 'State',
  created: 'Created',
  updated: 'Updated',
  weekOf: (day) => `Week of ${day}`,
};

const WORDS: Readonly<Record<string, ServerWords>> = {
  en: ENGLISH,
  fr: {
    yes: 'Oui',
    no: 'Non',
    hidden: '(masqué)',
    none: '(aucun)',
    id: 'Id',
    state: 'État',
    created: 'Créé',
    updated: 'Modifié',
    weekOf: (day) => `Semaine du ${day}`,
  },
  de: {
    yes: 'Ja',
    no: 'Nein',
    hidden: '(verborgen)',
    none: '(keine)',
    id: 'Id',
    state: 'Status',
    created: 'Erstellt',
    updated: 'Geändert',
    weekOf: (day) => `Woche vom ${day}`,
  },
  es: {
    yes: 'Sí',
    no: 'No',
    hidden: '(oculto)',
    none: '(ninguno)',
    id: 'Id',
    state: 'Estado',
    created: 'Creado',
    updated: 'Modificado',
    weekOf: (day) => `Semana del ${day}`,
  },
  pt: {
    yes: 'Sim',
    no: 'Não',
    hidden: '(oculto)',
    none: '(nenhum)',
    id: 'Id',
    state: 'Estado',
    created: 'Criado',
    updated: 'Alterado',
    weekOf: (day) => `Semana de ${day}`,
  },
  ja: {
    yes: 'はい',
    no: 'いいえ',
    hidden: '（非表示）',
    none: '（なし）',
    id: 'ID',
    state: '状態',
    created: '作成',
    updated: '更新',
    weekOf: (day) => `${day} の週`,
  },
  ar: {
    yes: 'نعم',
    no: 'لا',
    hidden: '(مخفي)',
    none: '(لا شيء)',
    id: 'المعرّف',
    state: 'الحالة',
    created: 'أُنشئ',
    updated: 'عُدّل',
    weekOf: (day) => `أسبوع ${day}`,
  },
};

/**
 * The server's words in a locale's language; English for a language the app does not ship.
 *
 * @example serverWords('fr-FR').yes // 'Oui'
 */
export function serverWords(locale: string): ServerWords {
  const language = languageOf(locale);
  return Object.hasOwn(WORDS, language) ? WORDS[language]! : ENGLISH;
}
