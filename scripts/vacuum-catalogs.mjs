// Before the suites run on a PostgreSQL server: VACUUMs the system catalogs that the suites' schema
// churn fills. Every test file migrates fresh schemas and drops them, which leaves their rows in
// pg_attribute, pg_class, pg_depend and the rest dead (about 300,000 dead pg_attribute rows a run).
// A server with autovacuum on clears them by itself. This project's CI machines run PostgreSQL with
// it off, so they pile up from run to run (364,000 dead rows for 1,020 live in pg_attribute, 58 MB,
// after a day of runs), and every catalog lookup walks past them. Best effort: a role that may not
// VACUUM the catalogs gets a line saying so, and the run goes on. DATABASE_URL names the server.
import pg from "pg";

const CATALOGS = [
  "pg_attribute",
  "pg_depend",
  "pg_class",
  "pg_type",
  "pg_index",
  "pg_constraint",
  "pg_trigger",
  "pg_attrdef",
  "pg_statistic",
  "pg_namespace",
  "pg_sequence",
  "pg_description",
];

const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
try {
  await client.connect();
  const started = performance.now();
  await client.query(`VACUUM ${CATALOGS.map((name) => `pg_catalog.${name}`).join(", ")}`);
  console.log(`ci: vacuumed PostgreSQL's catalogs in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} catch (error) {
  console.log(`ci: could not vacuum PostgreSQL's catalogs (${error.message}); the suites run anyway`);
} finally {
  await client.end().catch(() => {});
}
