import {
  Alert,
  Button,
  Code,
  Fieldset,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, useNavigate } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { useAction } from "../lib/action.tsx";
import { errorCode, errorMessage } from "../lib/errors.ts";
import { useIdempotent } from "../lib/idempotency.ts";
import { useTRPC, useTRPCClient } from "../lib/trpc.ts";
import { PageHeader } from "../lib/ui.tsx";
import { jsonError } from "../templates/json-field.ts";
import { defaultTerms, LicenseTermsFields, termsRequest } from "./license-terms.tsx";
import { useLookups } from "./lookups.ts";
import { initialValue, parseSchema, SchemaFields, type JsonValue } from "./schema-form.tsx";
import { effectiveSeatModel, seatTermsError, withMaxMachines } from "./seat-terms.ts";

const route = getRouteApi("/app/licenses/new");

export function IssueLicensePage() {
  const search = route.useSearch();
  const trpc = useTRPC();
  const navigate = useNavigate();
  const lookups = useLookups();
  const [companyId, setCompanyId] = useState<string | null>(search.companyId ?? null);
  const [templateId, setTemplateId] = useState<string | null>(null);
  const template = lookups.templates.find((t) => t.id === templateId);
  const versions = useQuery({
    ...trpc.templates.versions.list.queryOptions({ id: templateId ?? "" }),
    enabled: !!templateId,
  });
  const version = versions.data?.find((v) => v.id === template?.currentVersionId);
  const schema = parseSchema(version?.configSchema);
  const [config, setConfig] = useState<Record<string, JsonValue>>({});
  const [rawConfig, setRawConfig] = useState("{}");
  const [terms, setTerms] = useState(defaultTerms("auto"));
  const [fingerprint, setFingerprint] = useState("");

  useEffect(() => {
    const defaults = version ? (JSON.parse(version.defaults) as JsonValue) : {};
    const start = schema ? initialValue(schema, defaults) : defaults;
    setConfig((start ?? {}) as Record<string, JsonValue>);
    setRawConfig(JSON.stringify(start ?? {}, null, 2));
    // Reset when another version is chosen, not on every render of the parsed schema.
  }, [version?.id]);

  // Submitting the same form again after a lost answer gets the license the first attempt issued.
  const issue = useAction(useIdempotent(useTRPCClient().licenses.issue.mutate), {
    invalidate: [trpc.licenses.search.pathKey()],
    success: (issued) => `License issued: ${issued.licenseKey}`,
    then: (issued) => navigate({ to: "/licenses/$licenseId", params: { licenseId: issued.id } }),
  });
  const code = errorCode(issue.error);
  const fieldError = (...codes: string[]) =>
    code && codes.includes(code) ? errorMessage(issue.error) : undefined;
  const rawError = schema ? null : jsonError(rawConfig);
  const seatError = seatTermsError(terms);
  const submit = () => {
    if (!companyId || !templateId || rawError || seatError) return;
    const floating = effectiveSeatModel(terms, template) === "floating";
    issue.mutate({
      companyId,
      templateId,
      config: withMaxMachines(schema ? JSON.stringify(config) : rawConfig, terms, floating),
      ...termsRequest(terms),
      hwFingerprint: fingerprint.trim() || null,
    });
  };
  const general =
    issue.error &&
    !fieldError(
      "license.invalid_config",
      "license.invalid_expiry",
      "license.invalid_binding",
      "license.company_not_active",
    );

  return (
    <>
      <PageHeader title="Issue a license" />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack maw={760}>
          <Paper withBorder p="md">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select
                label="Company"
                required
                searchable
                data={lookups.companyOptions}
                value={companyId}
                onChange={setCompanyId}
                error={fieldError("license.company_not_active", "company.not_found")}
              />
              <Select
                label="Template"
                required
                searchable
                data={lookups.templateOptions}
                value={templateId}
                onChange={setTemplateId}
              />
            </SimpleGrid>
          </Paper>
          {template && (
            <Paper withBorder p="md">
              <Fieldset
                legend={version ? `Configuration (version ${version.version})` : "Configuration"}
                variant="unstyled"
              >
                {schema ? (
                  <SchemaFields schema={schema} value={config} onChange={setConfig} />
                ) : (
                  <Textarea
                    label="Configuration (JSON)"
                    description="This template has no version with a schema; the object goes into the license as written"
                    autosize
                    minRows={3}
                    value={rawConfig}
                    onChange={(e) => setRawConfig(e.currentTarget.value)}
                    error={rawError}
                    styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
                  />
                )}
                {fieldError("license.invalid_config") && (
                  <Text c="red" size="sm" mt="xs" role="alert">
                    {fieldError("license.invalid_config")}
                  </Text>
                )}
              </Fieldset>
            </Paper>
          )}
          <Paper withBorder p="md">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <LicenseTermsFields
                terms={terms}
                onChange={setTerms}
                template={template}
                bindings={["auto", "none", "fixed", "firstActivation"]}
                fieldError={fieldError}
              >
                <TextInput
                  label="Hardware fingerprint"
                  value={fingerprint}
                  onChange={(e) => setFingerprint(e.currentTarget.value)}
                />
              </LicenseTermsFields>
            </SimpleGrid>
          </Paper>
          {general && (
            <Alert color="red" role="alert">
              {errorMessage(issue.error)}
            </Alert>
          )}
          {schema && (
            <Text size="xs" c="dimmed">
              Configuration sent: <Code>{JSON.stringify(config)}</Code>
            </Text>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={issue.isPending} disabled={!companyId || !templateId}>
              Issue the license
            </Button>
          </Group>
        </Stack>
      </form>
    </>
  );
}
