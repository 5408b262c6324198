import { Button, FileButton, Group, Text, Textarea } from "@mantine/core";
import { useState } from "react";

// A pasted block is at most 16,384 characters (the API's limit); a file much larger is not one.
const MAX_FILE_BYTES = 64 * 1024;

/** A block of text pasted, or read from a file the person carried: "the request", "the receipt". */
export function BlockInput({
  label,
  description,
  value,
  onChange,
  uploadLabel,
}: {
  label: string;
  description: string;
  value: string;
  onChange: (text: string) => void;
  uploadLabel: string;
}) {
  const [fileError, setFileError] = useState<string | null>(null);
  const read = async (file: File | null) => {
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      setFileError(`${file.name} is ${Math.ceil(file.size / 1024)} KB: a block is a few lines of text.`);
      return;
    }
    setFileError(null);
    onChange(await file.text());
  };
  return (
    <>
      <Textarea
        label={label}
        description={description}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        autosize
        minRows={6}
        maxRows={14}
        spellCheck={false}
        autoComplete="off"
        styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)", fontSize: 12 } }}
        error={fileError}
      />
      <Group gap="xs">
        <FileButton onChange={(file) => void read(file)}>
          {(props) => (
            <Button variant="default" size="xs" {...props}>
              {uploadLabel}
            </Button>
          )}
        </FileButton>
        <Text size="xs" c="dimmed">
          or paste it above; text around the block (a mail) is ignored.
        </Text>
      </Group>
    </>
  );
}
