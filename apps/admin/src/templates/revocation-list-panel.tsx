import type { LicenseTemplateResponse } from "@licensing/contracts";
import { Alert, Button, Code, Group, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { fetchRevocationLists, listFileName, type RevocationPage } from "./revocation-list.ts";

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

function download(text: string, name: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

/**
 * The template's revocation list for machines that never go online (decision 0049): fetched from the public
 * client endpoint, every page of it, and offered as files to ship with an update or carry to the machine.
 */
export function RevocationListPanel({ template }: { template: LicenseTemplateResponse }) {
  const [sinceDay, setSinceDay] = useState("");
  const [asked, setAsked] = useState<{ since: string | null; at: number } | null>(null);
  const lists = useQuery({
    queryKey: ["revocation-list", template.id, asked],
    queryFn: () => fetchRevocationLists(template.id, asked!.since),
    enabled: asked !== null,
    retry: false,
    staleTime: Infinity,
  });
  const fetchLists = () =>
    setAsked({ since: sinceDay ? new Date(`${sinceDay}T00:00:00Z`).toISOString() : null, at: Date.now() });

  return (
    <Paper withBorder p="md" maw={760}>
      <Stack>
        <Text size="sm">
          A machine that never goes online cannot hear that its license was revoked. The revocation list names
          this template's licenses with immediate revocation that were revoked, signed with the
          template&apos;s key: ship it with an update of your program, or carry it to the machine. The program
          applies it with <Code>client.applyRevocationList(list)</Code>, where <Code>list</Code> is the
          file&apos;s text; a listed license turns Revoked for good. Licenses with graceful revocation are
          never listed.
        </Text>
        {template.revocation === "graceful" && (
          <Alert color="yellow">
            This template issues licenses with graceful revocation: only the licenses issued with immediate
            revocation (chosen at issue) appear in its list.
          </Alert>
        )}
        <form
          onSubmit={(e) => {
            e.preventDefault();
            fetchLists();
          }}
        >
          <Group align="flex-end">
            <TextInput
              label="Revoked since"
              description="Empty: every revoked license"
              type="date"
              value={sinceDay}
              onChange={(e) => setSinceDay(e.currentTarget.value)}
            />
            <Button type="submit" loading={lists.isFetching}>
              Get the revocation list
            </Button>
          </Group>
        </form>
        {lists.error && (
          <Alert color="red" role="alert" title="The revocation list could not be fetched">
            {lists.error.message}
          </Alert>
        )}
        {lists.data && <Pages template={template} pages={lists.data} />}
      </Stack>
    </Paper>
  );
}

function Pages({ template, pages }: { template: LicenseTemplateResponse; pages: RevocationPage[] }) {
  const total = pages.reduce((sum, p) => sum + p.count, 0);
  return (
    <Stack gap="xs" aria-live="polite">
      <Title order={2} size="h5">
        {plural(total, "revoked license", "revoked licenses")}
        {pages.length > 1 ? `, in ${pages.length} lists of at most 10,000` : ""}
      </Title>
      {pages.length > 1 && (
        <Text size="sm">Apply every file: each is signed on its own and names its part of the licenses.</Text>
      )}
      <Group gap="xs">
        {pages.map((page, i) => {
          const name = listFileName(template.productCode, i, pages.length);
          return (
            <Button key={name} variant="default" onClick={() => download(page.list, name)}>
              Download {name}
            </Button>
          );
        })}
      </Group>
    </Stack>
  );
}
