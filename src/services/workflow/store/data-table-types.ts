// A data table as n8n has one: named columns of four types, rows with n8n's system columns
// (id, createdAt, updatedAt), owned by a project.
export const COLUMN_TYPES = ['string', 'number', 'boolean', 'date'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

export interface DataTableColumn {
  id: string;
  name: string;
  type: ColumnType;
  index: number;
}

/** A row as the API answers it: the system columns, then the table's columns in their order. */
export type DataTableRowJson = { id: number; createdAt: string; updatedAt: string } & Record<string, unknown>;

/** A column name n8n accepts: a letter, then letters, digits and underscores, at most 63. */
export const COLUMN_NAME = /^[A-Za-z][A-Za-z0-9_]{0,62}$/;
