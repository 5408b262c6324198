import type { RevocationMode } from "@licensing/contracts";
import { List, Select, Stack, Text } from "@mantine/core";
import { REVOCATION_DESCRIPTION, REVOCATION_MODES, revocationOptions } from "../licenses/revocation-terms.ts";

/** A template's `revocation` (decision 0049), with what each mode means spelled out under the select. */
export function RevocationField({
  inputProps,
  disabled = false,
}: {
  inputProps: object;
  disabled?: boolean;
}) {
  return (
    <Stack gap={4}>
      <Select
        label="Revocation"
        description={REVOCATION_DESCRIPTION}
        allowDeselect={false}
        data={revocationOptions}
        disabled={disabled}
        {...inputProps}
      />
      <List size="xs" c="dimmed" aria-label="Revocation modes">
        {(Object.keys(REVOCATION_MODES) as RevocationMode[]).map((mode) => (
          <List.Item key={mode}>
            <Text span size="xs" fw={600}>
              {REVOCATION_MODES[mode].name}
            </Text>
            : {REVOCATION_MODES[mode].means}.
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}
