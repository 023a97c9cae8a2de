import type { Finding } from "../../http-node/test/support/person-scenario.js";
import { quoteIdent } from "../src/migrations/index.js";

type Db = { query(text: string, params?: unknown[]): Promise<{ rows: any[] }> };

/**
 * Every column of every table of `schema` that can hold text (text, varchar, char, json, jsonb,
 * bytea, arrays), found in information_schema, searched for each needle. Walking the schema, not a
 * list kept by hand, means a table added later is scanned too.
 */
export async function scanSchema(db: Db, schema: string, needles: string[]): Promise<Finding[]> {
  const { rows: columns } = await db.query(
    `SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
     JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = $1 AND t.table_type = 'BASE TABLE'
       AND c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'bytea', 'ARRAY')
     ORDER BY c.table_name, c.column_name`,
    [schema],
  );
  if (columns.length < 20) throw new Error(`only ${columns.length} text columns found in ${schema}: is it migrated?`);
  const findings: Finding[] = [];
  for (const { table_name: table, column_name: column, data_type: type } of columns) {
    // bytea is searched as bytes; everything else through its text form (jsonb keeps non-ASCII as is).
    const value =
      type === "bytea"
        ? `position(convert_to($1, 'UTF8') in ${quoteIdent(column)}) > 0`
        : `strpos(${quoteIdent(column)}::text, $1) > 0`;
    for (const needle of needles) {
      const { rows } = await db.query(
        `SELECT count(*)::int AS n FROM ${quoteIdent(schema)}.${quoteIdent(table)} WHERE ${value}`,
        [needle],
      );
      if (rows[0].n > 0) findings.push({ where: `${table}.${column}`, needle });
    }
  }
  return findings;
}

/** How many tables and text columns the scan walks (reported in the test output). */
export async function scannedShape(db: Db, schema: string): Promise<{ tables: number; columns: number }> {
  const { rows } = await db.query(
    `SELECT count(DISTINCT c.table_name)::int AS tables, count(*)::int AS columns FROM information_schema.columns c
     WHERE c.table_schema = $1 AND c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'bytea', 'ARRAY')`,
    [schema],
  );
  return rows[0];
}
