import { NEW_DEVICE_WINDOW_DAYS } from "@licensing/contracts";
import { Group, NumberInput, Select } from "@mantine/core";
import { MATCH_DESCRIPTION, matchOptions, type TemplateDeviceValues } from "../licenses/device-terms.ts";

/**
 * A template's fingerprint matching and device budget (decisions 0046, 0047), in a `useForm` whose values
 * hold `TemplateDeviceValues`: `inputProps` is its `getInputProps`.
 */
export function TemplateDeviceFields({
  inputProps,
  disabled = false,
}: {
  inputProps: (field: keyof TemplateDeviceValues) => object;
  disabled?: boolean;
}) {
  return (
    <>
      <Select
        label="Fingerprint matching"
        description={MATCH_DESCRIPTION}
        allowDeselect={false}
        data={matchOptions}
        disabled={disabled}
        {...inputProps("fingerprintMatch")}
      />
      <Group grow align="flex-start">
        <NumberInput
          label="New devices per window"
          description="Empty: no limit"
          min={1}
          allowDecimal={false}
          disabled={disabled}
          {...inputProps("maxNewDevicesPerWindow")}
        />
        <NumberInput
          label="Device window (days)"
          description={`${NEW_DEVICE_WINDOW_DAYS.min} to ${NEW_DEVICE_WINDOW_DAYS.max}`}
          min={NEW_DEVICE_WINDOW_DAYS.min}
          max={NEW_DEVICE_WINDOW_DAYS.max}
          allowDecimal={false}
          required
          disabled={disabled}
          {...inputProps("newDeviceWindowDays")}
        />
      </Group>
    </>
  );
}
