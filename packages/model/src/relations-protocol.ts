/**
 * The wire types of relations and dashboards (issue 16): what deleting a record would touch, and
 * the figures of a dashboard screen. Paths are in `API_PATHS` (`dashboards`) and below.
 */
import { type OnDelete, type Value } from './model.js';

/**
 * `GET <basePath>/<resource>/<id>/references`: the records that point at this one, by entity and
 * ref field, and what deleting it would do to them (decision 0043). The app asks before it offers
 * a delete, so that a refusal is said before the user confirms, not after.
 */
export const REFERENCES_PATH = 'references';

/** One ref that points at a record: how many records of `entity` hold it in `field`. */
export interface ReferenceCount {
  readonly entity: string;
  readonly field: string;
  /** Every referring record, whether or not the asker may read it: integrity is not a view. */
  readonly count: number;
  readonly onDelete: OnDelete;
}

/** The answer of `GET <resource>/<id>/references`. */
export interface ReferencesAnswer {
  readonly data: readonly ReferenceCount[];
  /** False when some `restrict` ref holds the record: a delete would answer 409 E_REFERENCED. */
  readonly deletable: boolean;
}

/**
 * A figure's value: a count (a number), an aggregate of a decimal or money field (an exact decimal
 * string), of an integer (a number; an average is a decimal string), or null over no rows.
 */
export type FigureValue = number | string | null;

/** One group of a grouped widget: the value of its `by` field (a bucket's first day for dates). */
export interface FigureGroup {
  /** The stored value that groups (an enum value, a state, a ref's id, a boolean, `2026-11-02`). */
  readonly key: Value;
  /** The key as a reader sees it: the enum or state label, the referenced record's name, the bucket. */
  readonly label: string;
  readonly value: FigureValue;
}

/** A widget's figure: whole (`value`) or grouped (`groups`, in the `by` field's order). */
export interface WidgetFigure {
  readonly id: string;
  readonly value: FigureValue;
  readonly groups: readonly FigureGroup[] | null;
}

/** The answer of `GET <basePath>/dashboards/<screen id>`: every widget's figure, in order. */
export interface DashboardFigures {
  readonly screen: string;
  readonly widgets: readonly WidgetFigure[];
}
