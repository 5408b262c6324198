/**
 * The license-search data set: a company tree, a few templates and many licenses written with one
 * INSERT … SELECT generate_series. Skewed like a real tenant base: a few big customers, many small ones,
 * one best-selling product, mostly Active licenses.
 */
import { randomUUID } from "node:crypto";
import type { TestClient } from "@licensing/api/testing";
import { tables, type Db } from "@licensing/db";
import { sql } from "drizzle-orm";
import { expectStatus, formatInt, log, rows, secondsSince, type BenchApp } from "./bench-app.ts";

export interface Company {
  id: string;
  name: string;
  path: string;
  depth: number;
  parentId: string | null;
}

const ROOTS = ["Acme Holding", "Globex Group", "Initech", "Umbrella Corp"];
const DIVISIONS = ["Robotics", "Logistics", "Pharma", "Energy", "Retail"];
const TEAMS = ["North", "South", "East", "West", "Labs", "Studio"];
const PRODUCTS = ["CAD Pro", "Render Farm", "Data Studio", "Field App", "Trial Kit", "Legacy Suite"];
/** Share of licenses per product, best seller first. */
const PRODUCT_WEIGHTS = [40, 25, 15, 10, 7, 3];
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** 4 roots × 5 divisions × 6 teams: 4 + 20 + 120 = 144 companies, names unique, e.g. "Initech Pharma East". */
export function companyTree(): Company[] {
  const all: Company[] = [];
  const add = (name: string, parent: Company | null) => {
    const id = randomUUID();
    const company = {
      id,
      name,
      path: `${parent?.path ?? "/"}${id}/`,
      depth: parent ? parent.depth + 1 : 0,
      parentId: parent?.id ?? null,
    };
    all.push(company);
    return company;
  };
  for (const root of ROOTS) {
    const r = add(root, null);
    for (const division of DIVISIONS) {
      const d = add(`${root} ${division}`, r);
      for (const team of TEAMS) add(`${root} ${division} ${team}`, d);
    }
  }
  return all;
}

export async function insertCompanies(db: Db, companies: Company[]) {
  const createdAt = new Date();
  await db.insert(tables.companies).values(
    companies.map((c, i) => ({
      ...c,
      slug: `c${i}`,
      status: "Active" as const,
      createdAt,
    })),
  );
}

export async function createTemplates(operator: TestClient) {
  const created: Array<{ id: string; name: string }> = [];
  for (const [i, name] of PRODUCTS.entries()) {
    const res = await operator.api.templates.create({
      body: { name, productCode: `BENCH-${i}`, defaultOfflineDays: 7, defaultValidityDays: 365 },
    });
    expectStatus(res, 201, `create template ${name}`);
    created.push({ id: res.body.id, name });
  }
  return created;
}

/**
 * `slots` lists ids repeated in proportion to their weight, so `slots[floor(random() * n)]` draws a
 * weighted id in SQL. Zipf-like (1/rank) for companies, in a shuffled order so big customers sit all
 * over the tree.
 */
function weightedSlots(ids: string[], weights: number[], size = 1000): string[] {
  const total = weights.reduce((a, b) => a + b, 0);
  const slots: string[] = [];
  ids.forEach((id, i) => {
    const n = Math.max(1, Math.round((weights[i]! / total) * size));
    for (let k = 0; k < n; k++) slots.push(id);
  });
  return slots;
}

export function companyWeights(companies: Company[]): number[] {
  const ranks = companies.map((_, i) => i + 1).sort(() => Math.random() - 0.5);
  return ranks.map((rank) => 1 / rank);
}

const uuidArray = (ids: string[]) => sql.raw(`ARRAY[${ids.map((id) => `'${id}'`).join(",")}]::uuid[]`);

/** `SVC-` and five groups of five Crockford characters, each from one byte of sha256(i, seed). */
function licenseKeySql(): string {
  const chars = Array.from(
    { length: 25 },
    (_, k) => `substr('${CROCKFORD}', (get_byte(h, ${k}) & 31) + 1, 1)`,
  );
  const groups = Array.from({ length: 5 }, (_, g) => chars.slice(g * 5, g * 5 + 5).join(" || "));
  return `'SVC-' || ${groups.join(" || '-' || ")}`;
}

/**
 * Inserts `count` licenses in one statement: status 80% Active (about 1% of them past expiry, not yet
 * swept), 6% Suspended, 9% Revoked, 5% Expired. Newest license `now`, one issued every 60 s before it
 * (about 1.9 years for a million). Tokens are a placeholder: search never verifies them.
 */
export async function insertLicenses(
  db: Db,
  options: { count: number; companies: Company[]; templates: Array<{ id: string }>; seed: number },
) {
  const companySlots = weightedSlots(
    options.companies.map((c) => c.id),
    companyWeights(options.companies),
  );
  const templateSlots = weightedSlots(
    options.templates.map((t) => t.id),
    PRODUCT_WEIGHTS.slice(0, options.templates.length),
  );
  const keySql = sql.raw(licenseKeySql());
  await db.execute(sql`
    INSERT INTO licenses (license_key, company_id, template_id, signing_key_id, status, config, offline_days,
                          token, expires_at, issued_at, revoked_at, revocation_reason, is_trial, hw_binding,
                          hw_fingerprint, updated_at)
    SELECT ${keySql}, r.company_id, r.template_id, k.id, r.status, '{"features":[],"limits":{}}', 7,
           'bench-placeholder-token',
           CASE WHEN r.status = 'Expired' OR r.stale THEN r.issued_at + interval '30 days'
                ELSE now() + (1 + floor(r.u * 730)) * interval '1 day' END,
           r.issued_at,
           CASE WHEN r.status = 'Revoked' THEN r.issued_at + interval '1 day' END,
           CASE WHEN r.status = 'Revoked' THEN 'refund' END,
           r.u < 0.1,
           CASE WHEN r.b < 0.6 THEN 'none' WHEN r.b < 0.9 THEN 'firstActivation' ELSE 'fixed' END,
           CASE WHEN r.b >= 0.9 THEN encode(h, 'hex') END,
           r.issued_at
    FROM (
      SELECT i, h,
             (${uuidArray(companySlots)})[1 + (get_byte(h, 25) * 256 + get_byte(h, 26)) % ${companySlots.length}] AS company_id,
             (${uuidArray(templateSlots)})[1 + (get_byte(h, 27) * 256 + get_byte(h, 28)) % ${templateSlots.length}] AS template_id,
             CASE WHEN s < 80 THEN 'Active' WHEN s < 86 THEN 'Suspended' WHEN s < 95 THEN 'Revoked'
                  ELSE 'Expired' END AS status,
             s < 80 AND get_byte(h, 30) < 3 AS stale,
             get_byte(h, 31) / 256.0 AS u,
             get_byte(h, 24) / 256.0 AS b,
             now() - (${options.count} - i) * interval '60 seconds' AS issued_at
      FROM (SELECT i, sha256(int8send(i) || int4send(${options.seed})) AS h,
                   get_byte(sha256(int8send(i) || int4send(${options.seed})), 29) % 100 AS s
            FROM generate_series(1, ${options.count}) AS i) AS g
    ) AS r
    JOIN signing_keys k ON k.template_id = r.template_id AND k.status = 'Active'`);
}

/**
 * The whole license data set in the bench app's database: the company tree, the templates and `licenses`
 * licenses (seed 42), with progress on stderr. Callers VACUUM ANALYZE once they have added their own rows.
 */
export async function loadLicenseDataset(app: BenchApp, licenses: number) {
  const { db } = app.database;
  const companies = companyTree();
  await insertCompanies(db, companies);
  const templates = await createTemplates(app.operator);
  log(
    `${companies.length} companies, ${templates.length} templates; inserting ${formatInt(licenses)} licenses…`,
  );
  const started = performance.now();
  await insertLicenses(db, { count: licenses, companies, templates, seed: 42 });
  log(`  inserted in ${secondsSince(started)} s`);
  return { companies, templates };
}

/** How many licenses a company holds (`of`) and how many its subtree holds (`inSubtree`). */
export async function licenseCounts(db: Db, companies: Company[]) {
  const perCompany = await rows<{ company_id: string; n: number }>(
    db,
    sql`SELECT company_id, count(*)::int AS n FROM licenses GROUP BY company_id`,
  );
  const counts = new Map(perCompany.map((r) => [r.company_id, r.n]));
  const of = (company: { id: string }) => counts.get(company.id) ?? 0;
  const inSubtree = (root: { path: string }) =>
    companies.filter((c) => c.path.startsWith(root.path)).reduce((n, c) => n + of(c), 0);
  return { of, inSubtree };
}
