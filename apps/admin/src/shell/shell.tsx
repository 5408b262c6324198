import { AppShell, Badge, Burger, Button, Group, Text, Title } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useQueryClient } from "@tanstack/react-query";
import { Outlet, useNavigate, useRouterState } from "@tanstack/react-router";
import { useAction } from "../lib/action.tsx";
import { NavLinkRoute } from "../lib/links.tsx";
import { useMe } from "../lib/me.ts";
import { useTRPC } from "../lib/trpc.ts";

const links = [
  { to: "/licenses", label: "Licenses" },
  { to: "/companies", label: "Companies" },
  { to: "/templates", label: "Templates" },
  { to: "/analytics", label: "Analytics" },
  { to: "/operator", label: "Operator console", operatorOnly: true },
  { to: "/audit", label: "Audit log", operatorOnly: true },
  { to: "/webhooks", label: "Webhooks", operatorOnly: true },
  { to: "/tokens", label: "API tokens" },
  { to: "/profile", label: "Profile" },
] as const;

export function Shell() {
  const [opened, { toggle, close }] = useDisclosure();
  const me = useMe();
  const path = useRouterState({ select: (s) => s.location.pathname });
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  // Signed out, nothing cached may show on the sign-in page or to the next user.
  const signOut = useAction(useTRPC().auth.logout.mutationOptions(), {
    notifyError: true,
    then: () => {
      queryClient.clear();
      return navigate({ to: "/sign-in", search: { next: undefined } });
    },
  });

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: "sm", collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label="Toggle navigation"
            />
            <Title order={2} size="h4">
              Licensing admin
            </Title>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" visibleFrom="sm">
              {me.email}
            </Text>
            <Badge visibleFrom="xs">{me.isOperator ? "operator" : (me.role ?? "no role")}</Badge>
            <Button variant="default" size="xs" onClick={() => signOut.mutate()}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main">
        {links
          .filter((link) => me.isOperator || !("operatorOnly" in link))
          .map((link) => (
            <NavLinkRoute
              key={link.to}
              to={link.to}
              label={link.label}
              active={path.startsWith(link.to)}
              onClick={close}
            />
          ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
