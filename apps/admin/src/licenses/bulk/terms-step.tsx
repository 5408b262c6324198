import type { LicenseTemplateResponse } from "@licensing/contracts";
import { Paper, Select, SimpleGrid, Textarea, Title } from "@mantine/core";
import { LicenseTermsFields, type LicenseTerms } from "../license-terms.tsx";

/** The first step's fields: the template, the terms and the configuration of rows without their own. */
export interface BatchTerms {
  templateId: string | null;
  terms: LicenseTerms;
  sharedConfig: string;
}

/** Step 1: what every license of the batch shares. */
export function TermsStep({
  value,
  onChange,
  templates,
  templateOptions,
  configProblem,
  fieldError,
}: {
  value: BatchTerms;
  onChange: (value: BatchTerms) => void;
  templates: readonly LicenseTemplateResponse[];
  templateOptions: { value: string; label: string }[];
  /** What is wrong with the shared configuration, checked in the browser. */
  configProblem: string | null;
  /** The server's message for a field, when it refused the batch for it. */
  fieldError: (code: string) => string | undefined;
}) {
  const set = (change: Partial<BatchTerms>) => onChange({ ...value, ...change });
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb="sm">
        Terms for every license
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label="Template"
          required
          searchable
          data={templateOptions}
          value={value.templateId}
          onChange={(templateId) => set({ templateId })}
        />
        <LicenseTermsFields
          terms={value.terms}
          onChange={(terms) => set({ terms })}
          template={templates.find((t) => t.id === value.templateId)}
          bindings={["none", "firstActivation"]}
          fieldError={fieldError}
          trialLabel="Trial licenses"
          machineLimit={false}
        />
        <Textarea
          label="Configuration for rows without their own (JSON)"
          description="Empty: the template version's defaults. A row's config replaces it, and the defaults fill in the keys it leaves out. A floating license's machine limit is limits.maxMachines"
          autosize
          minRows={2}
          value={value.sharedConfig}
          onChange={(e) => set({ sharedConfig: e.currentTarget.value })}
          error={configProblem ?? fieldError("license.invalid_config")}
          styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
        />
      </SimpleGrid>
    </Paper>
  );
}
