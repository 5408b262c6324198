import {
  Checkbox,
  Fieldset,
  MultiSelect,
  NumberInput,
  Select,
  Stack,
  TagsInput,
  TextInput,
} from "@mantine/core";

/** The subset of JSON Schema the form renders; anything else is edited as JSON. */
export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
type JsonObject = { [key: string]: JsonValue };

export function parseSchema(text: string | undefined): JsonSchema | null {
  if (!text) return null;
  try {
    const schema = JSON.parse(text) as JsonSchema;
    return typeof schema === "object" && schema !== null ? schema : null;
  } catch {
    return null;
  }
}

const typeOf = (schema: JsonSchema) =>
  Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;

/** The schema's own defaults under the version's defaults: the values the form starts from. */
export function initialValue(schema: JsonSchema, defaults: JsonValue | undefined): JsonValue | undefined {
  if (defaults !== undefined) {
    if (
      typeOf(schema) !== "object" ||
      typeof defaults !== "object" ||
      defaults === null ||
      Array.isArray(defaults)
    )
      return defaults;
  }
  if (typeOf(schema) === "object" && schema.properties) {
    const base = (defaults ?? {}) as JsonObject;
    const out: JsonObject = { ...base };
    for (const [key, child] of Object.entries(schema.properties)) {
      const value = initialValue(child, base[key]);
      const empty = typeof value === "object" && value !== null && Object.keys(value).length === 0;
      if (value !== undefined && !empty) out[key] = value;
    }
    return out;
  }
  return schema.default as JsonValue | undefined;
}

const labelOf = (name: string, schema: JsonSchema) =>
  schema.title ?? name.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/^./, (c) => c.toUpperCase());

/** A form built from the template version's config schema; its value is the license's config object. */
export function SchemaFields({
  schema,
  value,
  onChange,
  path = "",
}: {
  schema: JsonSchema;
  value: JsonObject;
  onChange: (value: JsonObject) => void;
  path?: string;
}) {
  const entries = Object.entries(schema.properties ?? {});
  return (
    <Stack gap="sm">
      {entries.map(([name, child]) => {
        const set = (v: JsonValue | undefined) => {
          const next = { ...value };
          if (v === undefined || v === "") delete next[name];
          else next[name] = v;
          onChange(next);
        };
        const common = {
          label: labelOf(name, child),
          description: child.description,
          required: schema.required?.includes(name) ?? false,
        };
        const current = value[name];
        const type = typeOf(child);
        if (type === "object") {
          return (
            <Fieldset key={name} legend={common.label}>
              <SchemaFields
                schema={child}
                value={(current as JsonObject | undefined) ?? {}}
                onChange={(v) => set(Object.keys(v).length ? v : undefined)}
                path={`${path}${name}.`}
              />
            </Fieldset>
          );
        }
        if (type === "array") {
          const items = (current as string[] | undefined) ?? [];
          const options = child.items?.enum?.map(String);
          return options ? (
            <MultiSelect
              key={name}
              {...common}
              searchable
              data={options}
              value={items}
              onChange={(v) => set(v.length ? v : undefined)}
            />
          ) : (
            <TagsInput
              key={name}
              {...common}
              placeholder="Type and press Enter"
              value={items}
              onChange={(v) => set(v.length ? v : undefined)}
            />
          );
        }
        if (child.enum) {
          return (
            <Select
              key={name}
              {...common}
              clearable
              data={child.enum.map(String)}
              value={current === undefined ? null : String(current)}
              onChange={(v) =>
                set(v === null ? undefined : (child.enum!.find((e) => String(e) === v) as JsonValue))
              }
            />
          );
        }
        if (type === "integer" || type === "number") {
          return (
            <NumberInput
              key={name}
              {...common}
              min={child.minimum}
              max={child.maximum}
              allowDecimal={type === "number"}
              value={typeof current === "number" ? current : ""}
              onChange={(v) => set(typeof v === "number" ? v : undefined)}
            />
          );
        }
        if (type === "boolean") {
          return (
            <Checkbox
              key={name}
              label={common.label}
              description={common.description}
              checked={current === true}
              onChange={(e) => set(e.currentTarget.checked)}
            />
          );
        }
        return (
          <TextInput
            key={name}
            {...common}
            value={typeof current === "string" ? current : ""}
            onChange={(e) => set(e.currentTarget.value)}
          />
        );
      })}
    </Stack>
  );
}
