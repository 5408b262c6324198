/**
 * Types of a license's config, for `LicenseClient<Config>`: `Config` is the type `licensing-codegen`
 * generates from the template version's `configSchema` (decision 0043). With no type argument (`unknown`)
 * every path is a string and every value `unknown`, as before.
 */

/** Whether `T` says nothing (`unknown` or `any`): an untyped client, or a property the schema leaves open. */
type IsOpen<T> = unknown extends T ? true : false;

/** How many levels a path may have; a recursive schema would otherwise make the union endless. */
type Levels = [never, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

type PathsOf<T, Depth extends number> = [Depth] extends [never]
  ? never
  : IsOpen<T> extends true
    ? string
    : T extends readonly (infer Item)[]
      ? `${number}` | `${number}.${PathsOf<Exclude<Item, undefined>, Levels[Depth]>}`
      : T extends object
        ? {
            [K in keyof T & string]-?: K | `${K}.${PathsOf<Exclude<T[K], undefined>, Levels[Depth]>}`;
          }[keyof T & string]
        : never;

/**
 * Every dotted path `getConfig` accepts for `Config`: each property at any depth (`"limits"`,
 * `"limits.maxSeats"`), array items by index (`"features.0"`); any string for an untyped client.
 */
export type ConfigPath<Config> = IsOpen<Config> extends true ? string : PathsOf<Config, 10>;

/**
 * The value at `Path` in `Config` (`number` for `"limits.maxSeats"`). A key that itself holds dots is
 * matched whole first, as `getConfig` does at run time. `unknown` for an untyped client.
 */
export type ConfigValue<Config, Path extends string> =
  IsOpen<Config> extends true
    ? unknown
    : Config extends readonly (infer Item)[]
      ? Path extends `${number}`
        ? Exclude<Item, undefined>
        : Path extends `${number}.${infer Rest}`
          ? ConfigValue<Exclude<Item, undefined>, Rest>
          : never
      : Path extends keyof Config
        ? Exclude<Config[Path], undefined>
        : Path extends `${infer Head}.${infer Rest}`
          ? Head extends keyof Config
            ? ConfigValue<Exclude<Config[Head], undefined>, Rest>
            : never
          : never;

/**
 * The feature names `hasFeature` accepts: the items of `Config["features"]` when the schema lists them
 * (`"export" | "sync"`), otherwise any string.
 */
export type FeatureOf<Config> =
  IsOpen<Config> extends true
    ? string
    : Config extends { features?: infer Features }
      ? Exclude<Features, undefined | null> extends readonly (infer Name)[]
        ? string extends Name
          ? string
          : Extract<Name, string>
        : string
      : string;

/** A path only an untyped client takes with a caller-chosen value type (`getConfig<number>("a.b")`). */
export type UntypedPath<Config> = IsOpen<Config> extends true ? string : never;
