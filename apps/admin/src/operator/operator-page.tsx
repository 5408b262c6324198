import { Alert, Tabs } from "@mantine/core";
import { getRouteApi } from "@tanstack/react-router";
import { usePermissions } from "../lib/me.ts";
import { PageHeader } from "../lib/ui.tsx";
import { AllLicensesPanel } from "./all-licenses-panel.tsx";
import { OperatorUsersPanel } from "./operator-users-panel.tsx";
import type { OperatorTab } from "./operator-search.ts";
import { OverviewTiles } from "./overview-tiles.tsx";
import { TenantsPanel } from "./tenants-panel.tsx";

const route = getRouteApi("/app/operator");

/** The platform as a whole, for operators; anyone else is told so (the server refuses them too). */
export function OperatorPage() {
  const can = usePermissions();
  if (!can.operator)
    return (
      <>
        <PageHeader title="Operator console" />
        <Alert color="yellow" role="alert">
          The operator console shows every tenant of the platform, so only operators may open it. Your
          companies are under Companies, and their figures under Analytics.
        </Alert>
      </>
    );
  return <OperatorConsole />;
}

function OperatorConsole() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const tab = search.tab ?? "overview";
  return (
    <>
      <PageHeader title="Operator console" />
      {/* Each tab's filters belong to it: switching tabs starts from none. */}
      <Tabs
        value={tab}
        onChange={(t) => void navigate({ search: { tab: (t as OperatorTab) ?? undefined } })}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="overview">Overview</Tabs.Tab>
          <Tabs.Tab value="tenants">Tenants</Tabs.Tab>
          <Tabs.Tab value="licenses">All licenses</Tabs.Tab>
          <Tabs.Tab value="users">Operators</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="overview">
          <OverviewTiles />
        </Tabs.Panel>
        <Tabs.Panel value="tenants">
          <TenantsPanel />
        </Tabs.Panel>
        <Tabs.Panel value="licenses">
          <AllLicensesPanel />
        </Tabs.Panel>
        <Tabs.Panel value="users">
          <OperatorUsersPanel />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
