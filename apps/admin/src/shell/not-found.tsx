import { Stack, Text, Title } from "@mantine/core";

import { ButtonLink } from "../lib/links.tsx";

export function NotFound() {
  return (
    <Stack align="center" p="xl">
      <Title order={1}>Page not found</Title>
      <Text>There is nothing at this address.</Text>
      <ButtonLink to="/licenses">Go to licenses</ButtonLink>
    </Stack>
  );
}
