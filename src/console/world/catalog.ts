// Which tables make up the world, read from the database itself: every table named with its
// owner's prefix (the platform's and each selected service's, the rule the architecture test
// enforces), narrowed by the owner's declared ServiceWorld, with its primary key, the tables
// it references (restore order) and its serial column (PostgreSQL sequences to move on).
import { sql } from 'kysely';
import type { Db } from '../../platform/db.js';
import type { InstanceRows, ServiceWorld } from '../../platform/world.js';

export interface WorldOwner {
  name: string;
  world?: ServiceWorld;
}

export interface WorldTable {
  name: string;
  owner: string;
  /** Primary-key columns (every column when a table has none). */
  key: string[];
  /** Every column, in sorted order: rows read in this order are already canonical (canonical.ts). */
  columns: string[];
  /** A column filled from a sequence (PostgreSQL), moved past the restored rows. */
  serial?: string;
  /** Key columns of a text type on PostgreSQL: ordered with COLLATE "C" (code points, as canonical.ts orders). */
  textKey?: string[];
  /** The owner's rule for rows of the instance (ServiceWorld.instanceRows). */
  instanceRows?: InstanceRows;
}

interface Facts {
  tables: string[];
  keys: Map<string, string[]>;
  columns: Map<string, string[]>;
  references: Map<string, Set<string>>;
  serials: Map<string, string>;
  /** table → its columns of a text type (PostgreSQL only). */
  text: Map<string, Set<string>>;
}

async function sqliteFacts(db: Db): Promise<Facts> {
  const k = db.kysely;
  const tables = (
    await sql<{
      name: string;
    }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(k)
  ).rows.map((r) => r.name);
  const cols = (
    await sql<{
      t: string;
      name: string;
      pk: number;
    }>`select m.name as t, p.name as name, p.pk as pk from sqlite_master m join pragma_table_info(m.name) p where m.type = 'table' order by m.name, p.cid`.execute(
      k,
    )
  ).rows;
  const fks = (
    await sql<{
      t: string;
      ref: string;
    }>`select m.name as t, p."table" as ref from sqlite_master m join pragma_foreign_key_list(m.name) p where m.type = 'table'`.execute(
      k,
    )
  ).rows;
  const keys = new Map<string, string[]>();
  const columns = new Map<string, string[]>();
  for (const c of cols) {
    columns.set(c.t, [...(columns.get(c.t) ?? []), c.name]);
    if (c.pk > 0) {
      const key = keys.get(c.t) ?? [];
      key[c.pk - 1] = c.name;
      keys.set(c.t, key);
    }
  }
  return { tables, keys, columns, references: groupReferences(fks), serials: new Map(), text: new Map() };
}

async function postgresFacts(db: Db): Promise<Facts> {
  const k = db.kysely;
  const tables = (
    await sql<{
      name: string;
    }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(
      k,
    )
  ).rows.map((r) => r.name);
  const cols = (
    await sql<{
      t: string;
      name: string;
      dflt: string | null;
      type: string;
    }>`select table_name as t, column_name as name, column_default as dflt, data_type as type from information_schema.columns where table_schema = current_schema() order by table_name, ordinal_position`.execute(
      k,
    )
  ).rows;
  const pks = (
    await sql<{ t: string; name: string; pos: number }>`
    select c.relname as t, a.attname as name, array_position(i.indkey::int2[], a.attnum) as pos
    from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid and a.attnum = any(i.indkey)
    where i.indisprimary and n.nspname = current_schema()`.execute(k)
  ).rows;
  const fks = (
    await sql<{ t: string; ref: string }>`
    select tc.relname as t, rc.relname as ref from pg_constraint c
    join pg_class tc on tc.oid = c.conrelid join pg_class rc on rc.oid = c.confrelid join pg_namespace n on n.oid = tc.relnamespace
    where c.contype = 'f' and n.nspname = current_schema()`.execute(k)
  ).rows;
  const keys = new Map<string, string[]>();
  for (const p of pks.sort((a, b) => a.pos - b.pos)) keys.set(p.t, [...(keys.get(p.t) ?? []), p.name]);
  const columns = new Map<string, string[]>();
  const serials = new Map<string, string>();
  const text = new Map<string, Set<string>>();
  for (const c of cols) {
    columns.set(c.t, [...(columns.get(c.t) ?? []), c.name]);
    if (c.dflt?.startsWith('nextval(')) serials.set(c.t, c.name);
    if (['text', 'character varying', 'character'].includes(c.type))
      text.set(c.t, (text.get(c.t) ?? new Set()).add(c.name));
  }
  return { tables, keys, columns, references: groupReferences(fks), serials, text };
}

function groupReferences(fks: Array<{ t: string; ref: string }>): Map<string, Set<string>> {
  const refs = new Map<string, Set<string>>();
  for (const { t, ref } of fks) if (t !== ref) refs.set(t, (refs.get(t) ?? new Set()).add(ref));
  return refs;
}

/** Tables in an order where each comes after the tables it references (insert order; deletes go backwards). */
function parentsFirst(tables: string[], references: Map<string, Set<string>>): string[] {
  const done = new Set<string>();
  const out: string[] = [];
  const visit = (t: string, path: Set<string>) => {
    if (done.has(t) || path.has(t)) return;
    path.add(t);
    for (const ref of [...(references.get(t) ?? [])].sort()) if (tables.includes(ref)) visit(ref, path);
    done.add(t);
    out.push(t);
  };
  for (const t of [...tables].sort()) visit(t, new Set());
  return out;
}

/** The world's tables for these owners, parents first. */
export async function worldCatalog(db: Db, owners: WorldOwner[]): Promise<WorldTable[]> {
  const facts = db.dialect === 'postgres' ? await postgresFacts(db) : await sqliteFacts(db);
  const chosen: WorldTable[] = [];
  for (const owner of owners) {
    const prefix = `${owner.name}_`;
    const owned = facts.tables
      .filter((t) => t.startsWith(prefix) && t !== `${owner.name}_migrations` && t !== `${owner.name}_migrations_lock`)
      .sort();
    for (const name of owner.world?.tables ? owner.world.tables(owned) : owned) {
      const primary = facts.keys.get(name)?.filter(Boolean);
      const key = primary?.length ? primary : (facts.columns.get(name) ?? []);
      const text = facts.text.get(name);
      chosen.push({
        name,
        owner: owner.name,
        key,
        columns: [...(facts.columns.get(name) ?? [])].sort(),
        ...(facts.serials.has(name) ? { serial: facts.serials.get(name) } : {}),
        ...(text ? { textKey: key.filter((c) => text.has(c)) } : {}),
        ...(owner.world?.instanceRows ? { instanceRows: owner.world.instanceRows } : {}),
      });
    }
  }
  const byName = new Map(chosen.map((t) => [t.name, t]));
  return parentsFirst([...byName.keys()], facts.references).map((n) => byName.get(n)!);
}
