import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The store's stored functions, one `.sql` file each in `migrations/sql`: one home for the
 * store's write algorithm, which tree-store calls (through typed wrappers with named arguments)
 * and migrations install. Each file is a `CREATE OR REPLACE FUNCTION`, so a migration installs it
 * whether or not an older body is there. Changing one after a deployment means editing its file
 * and adding a migration that installs it again; the migration that first installed it reads the
 * same file, so a new database gets the newest body straight away.
 */
export const STORE_FUNCTIONS = [
  'tree_chain',
  'tree_create',
  'tree_append',
  'tree_append_runs',
  'tree_move',
  'tree_gc',
  'tree_summary_base',
] as const;
export type StoreFunction = (typeof STORE_FUNCTIONS)[number];

/** The directory of the functions' files, beside this package's sources. */
export const STORE_FUNCTIONS_DIR = join(__dirname, '..', 'sql');

/** The SQL that installs `name`: its file, as it is. */
export function storeFunction(name: StoreFunction): string {
  return readFileSync(join(STORE_FUNCTIONS_DIR, `${name}.sql`), 'utf8');
}
