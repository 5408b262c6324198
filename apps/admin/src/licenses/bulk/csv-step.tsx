import { Code, FileInput, List, Paper, SimpleGrid, Text, Textarea, Title } from "@mantine/core";

const EXAMPLE = `company,config
acme-europe,
acme-group,"{""edition"": ""pro"", ""limits"": {""maxSeats"": 5}}"`;

/** Step 2: the rows, from a file or pasted; a file's text goes into the box, where it can be edited. */
export function CsvStep({
  csv,
  file,
  onCsv,
  onFile,
}: {
  csv: string;
  file: File | null;
  onCsv: (csv: string) => void;
  onFile: (file: File | null) => void;
}) {
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb="xs">
        The CSV
      </Title>
      <Text size="sm">The first row names the columns; then one row per license:</Text>
      <List size="sm" mb="xs">
        <List.Item>
          <Code>company</Code>: the company&apos;s id or slug, among the companies you can see (required).
        </List.Item>
        <List.Item>
          <Code>config</Code>: the license&apos;s configuration as a JSON object, in double quotes with its
          quotes doubled (optional; empty means the configuration above).
        </List.Item>
        <List.Item>Other columns are ignored; row numbers count the header as row 1.</List.Item>
      </List>
      <Code block mb="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
        {EXAMPLE}
      </Code>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <FileInput
          label="CSV file"
          description="Its text is read into the box beside, where it can be edited"
          accept=".csv,text/csv"
          clearable
          clearButtonProps={{ "aria-label": "Remove the file" }}
          value={file}
          onChange={onFile}
        />
        <Textarea
          label="Or paste the CSV"
          autosize
          minRows={3}
          maxRows={12}
          description="The first row names the columns"
          spellCheck={false}
          value={csv}
          onChange={(e) => onCsv(e.currentTarget.value)}
          styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
        />
      </SimpleGrid>
    </Paper>
  );
}
