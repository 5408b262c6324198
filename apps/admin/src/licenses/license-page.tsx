import { Button, Code, Loader, Group, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { lazy, Suspense, useState } from "react";
import { AnchorLink } from "../lib/links.tsx";
import { usePermissions } from "../lib/me.ts";
import { useTRPC } from "../lib/trpc.ts";
import { StatusBadge } from "../lib/status.tsx";
import { Field, formatDate, PageHeader, QueryState } from "../lib/ui.tsx";
import { ActivationsPanel } from "./activations-panel.tsx";
import { decodeClaims } from "./claims.ts";
import { DeviceBudgetPanel } from "./device-budget-panel.tsx";
import { MATCH_MODES } from "./device-terms.ts";
import { LicenseActionDialog, type LicenseAction } from "./license-actions.tsx";
import { useLookups } from "./lookups.ts";
import { REVOCATION_MODES } from "./revocation-terms.ts";
import { SEAT_MODELS } from "./seat-terms.ts";
import { SeatsPanel } from "./seats-panel.tsx";

const route = getRouteApi("/app/licenses/$licenseId");
const HeartbeatsChart = lazy(() => import("./heartbeats-chart.tsx"));

export function LicensePage() {
  const { licenseId } = route.useParams();
  const trpc = useTRPC();
  const can = usePermissions();
  const lookups = useLookups();
  const license = useQuery(trpc.licenses.get.queryOptions({ id: licenseId }));
  const file = useQuery(trpc.licenses.file.queryOptions({ id: licenseId }));
  const [action, setAction] = useState<LicenseAction | null>(null);

  return (
    <QueryState query={license} label="the license">
      {(l) => {
        const claims = file.data ? decodeClaims(file.data.token) : null;
        const live = l.status === "Active" || l.status === "Suspended";
        return (
          <Stack>
            <PageHeader
              title={
                <>
                  <Code fz="inherit">{l.licenseKey}</Code>{" "}
                  <StatusBadge of="license" status={l.status} size="lg" />
                </>
              }
            >
              <Button
                component="a"
                href={`/api/v1/panel/licenses/${l.id}/download`}
                download
                variant="default"
              >
                Download .lic
              </Button>
            </PageHeader>
            {can.manageLicenses && live && (
              <Group gap="xs" aria-label="License actions" role="group">
                {l.status === "Active" && (
                  <Button variant="default" onClick={() => setAction("suspend")}>
                    Suspend
                  </Button>
                )}
                {l.status === "Suspended" && (
                  <Button variant="default" onClick={() => setAction("resume")}>
                    Resume
                  </Button>
                )}
                <Button variant="default" onClick={() => setAction("rebind")}>
                  Rebind
                </Button>
                <Button variant="default" onClick={() => setAction("transfer")}>
                  Transfer
                </Button>
                <Button color="red" onClick={() => setAction("revoke")}>
                  Revoke
                </Button>
              </Group>
            )}
            <Paper withBorder p="md">
              <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
                <Field label="Company">
                  <AnchorLink to="/companies/$companyId" params={{ companyId: l.companyId }}>
                    {lookups.companyName(l.companyId)}
                  </AnchorLink>
                </Field>
                <Field label="Template">
                  <AnchorLink to="/templates/$templateId" params={{ templateId: l.templateId }}>
                    {lookups.templateName(l.templateId)}
                  </AnchorLink>
                </Field>
                <Field label="Issued">{formatDate(l.issuedAt)}</Field>
                <Field label="Expires">{formatDate(l.expiresAt)}</Field>
                <Field label="Version">{l.currentVersion}</Field>
                <Field label="Offline days">{l.offlineDays}</Field>
                <Field label="Binding">
                  {l.hwBinding}
                  {l.hwFingerprint ? ` (${l.hwFingerprint})` : ""}
                </Field>
                <Field label="Fingerprint matching">
                  {MATCH_MODES[l.fingerprintMatch].name}
                  <Text size="xs" c="dimmed">
                    {MATCH_MODES[l.fingerprintMatch].accepts}
                  </Text>
                </Field>
                <Field label="Revocation">
                  {REVOCATION_MODES[l.revocation].name}
                  <Text size="xs" c="dimmed">
                    {REVOCATION_MODES[l.revocation].means}
                  </Text>
                </Field>
                <Field label="Seats">
                  {SEAT_MODELS[l.seatModel].name}
                  <Text size="xs" c="dimmed">
                    {SEAT_MODELS[l.seatModel].means}
                  </Text>
                </Field>
                <Field label="Trial">{l.isTrial ? "yes" : "no"}</Field>
                {l.revokedAt && (
                  <Field label="Revoked">
                    {formatDate(l.revokedAt)}
                    {l.revocationReason ? `: ${l.revocationReason}` : ""}
                  </Field>
                )}
              </SimpleGrid>
            </Paper>
            <Paper withBorder p="md">
              <Title order={2} size="h4" mb="sm">
                Token claims
              </Title>
              {claims ? (
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <Field label="Product (tpl)">{claims.tpl}</Field>
                  <Field label="Version (ver)">{claims.ver}</Field>
                  <Field label="Issued at (iat)">
                    {formatDate(new Date(claims.iat * 1000).toISOString())}
                  </Field>
                  <Field label="Expires (exp)">{formatDate(new Date(claims.exp * 1000).toISOString())}</Field>
                  <Field label="Hardware (hw)">
                    {claims.hw.mode}
                    {claims.hw.fp ? ` · ${claims.hw.fp}` : ""}
                  </Field>
                  <Field label="Fingerprint matching (fm)">{claims.fm ?? "not in the token"}</Field>
                  <Field label="Revocation (rv)">{claims.rv ?? "not in the token (graceful)"}</Field>
                  <Field label="Features">{claims.cfg.features.join(", ") || "none"}</Field>
                  <Field label="Configuration (cfg)">
                    <Code block>{JSON.stringify(claims.cfg, null, 2)}</Code>
                  </Field>
                </SimpleGrid>
              ) : (
                <Text c="dimmed">
                  {file.isPending ? "Loading the token…" : "The token could not be read."}
                </Text>
              )}
            </Paper>
            <DeviceBudgetPanel license={l} canReset={can.manageLicenses && live} />
            {l.seatModel === "floating" && <SeatsPanel license={l} canWrite={can.manageLicenses} />}
            <ActivationsPanel license={l} canWrite={can.manageLicenses} />
            <Suspense fallback={<Loader aria-label="Loading the heartbeats chart" />}>
              <HeartbeatsChart license={l} />
            </Suspense>
            {action && <LicenseActionDialog license={l} action={action} onClose={() => setAction(null)} />}
          </Stack>
        );
      }}
    </QueryState>
  );
}
