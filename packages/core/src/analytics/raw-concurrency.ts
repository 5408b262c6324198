import { sql, type SQL } from "drizzle-orm";
import { uuidArray } from "./raw-usage.ts";

/** A row of `rawConcurrency`: one license's floating seats over one UTC day. */
export interface RawConcurrencyRow {
  day: string;
  licenseId: string;
  companyId: string;
  templateId: string;
  peakLeases: number;
  fullSeconds: number;
}

export interface RawConcurrencyOptions {
  /** Only these companies' leases; null for the whole platform. */
  companyIds: string[] | null;
  /** Only this template's leases. */
  templateId?: string | undefined;
}

/**
 * The one definition of concurrency (decision 0048, amendment), read from the lease spans for instants in
 * [from, until): a span is live in `[acquired_at, least(expires_at, released_at))`. Per license, its
 * spans' starts (+1) and ends (−1) are swept in time order (ends first at the same instant: the intervals
 * are half-open), giving the steps of its live count; each step is cut at UTC midnights, and per day and
 * license the peak is the highest count of a step that day and the full seconds are the length of the
 * steps at or above the license's `maxSeats`. The rollup job stores it per day and license; concurrency
 * reads it for the days the job has not rolled up yet (today).
 *
 * Spans that overlap the window are found by the BRIN index (`acquired_at < until`) and the btree on
 * `expires_at` (`> from`: a span never ends after its `expires_at`), whatever their age.
 */
export function rawConcurrency(from: Date, until: Date, options: RawConcurrencyOptions): SQL {
  const lower = sql`${from.toISOString()}::timestamptz`;
  const upper = sql`${until.toISOString()}::timestamptz`;
  const ids = options.companyIds;
  return sql`
    with spans as (
      select license_id, company_id, template_id,
             greatest(acquired_at, ${lower}) as s,
             least(expires_at, coalesce(released_at, 'infinity'::timestamptz), ${upper}) as e
        from leases
       where acquired_at < ${upper} and expires_at > ${lower}
             ${ids ? sql`and company_id = any(${uuidArray(ids)})` : sql``}
             ${options.templateId ? sql`and template_id = ${options.templateId}::uuid` : sql``}
    ),
    events as (
      select license_id, company_id, template_id, s as t, 1 as d from spans where e > s
      union all
      select license_id, company_id, template_id, e as t, -1 as d from spans where e > s
    ),
    steps as (
      select license_id, company_id, template_id,
             (t at time zone 'UTC') as t,
             (lead(t) over (partition by license_id, company_id order by t, d)
               at time zone 'UTC') as next,
             sum(d) over (partition by license_id, company_id order by t, d
                          rows unbounded preceding) as n
        from events
    ),
    cut as (
      select st.license_id, st.company_id, st.template_id, st.n, day.day,
             extract(epoch from least(st.next, day.day + interval '1 day') - greatest(st.t, day.day)) as seconds
        from steps st
             cross join lateral generate_series(date_trunc('day', st.t), st.next - interval '1 microsecond',
                                                interval '1 day') as day(day)
       where st.n > 0 and st.next > st.t
    )
    select c.day::date::text as "day", c.license_id as "licenseId", c.company_id as "companyId",
           min(c.template_id::text)::uuid as "templateId",
           max(c.n)::int as "peakLeases",
           coalesce(round(sum(c.seconds) filter (where c.n >= l.max_seats)), 0)::int as "fullSeconds"
      from cut c
      join licenses l on l.id = c.license_id
     group by c.day, c.license_id, c.company_id`;
}
