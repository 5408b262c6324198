import { List, Paper, Text, ThemeIcon } from "@mantine/core";
import type { Outcome } from "./offline-outcome.ts";

const MARKS = {
  ok: { color: "teal.9", mark: "✓", label: "Will happen" },
  note: { color: "indigo.8", mark: "i", label: "Note" },
  refused: { color: "red.9", mark: "✕", label: "Refused" },
} as const;

/** "What will happen", each line marked by whether it happens, is a note, or is a refusal. */
export function OutcomeList({ title, outcomes }: { title: string; outcomes: Outcome[] }) {
  return (
    <Paper withBorder p="sm" bg="gray.0" aria-live="polite">
      <Text size="sm" fw={600} mb={4} id="offline-outcome-title">
        {title}
      </Text>
      <List size="sm" spacing={4} aria-labelledby="offline-outcome-title">
        {outcomes.map((o) => (
          <List.Item
            key={o.text}
            icon={
              <ThemeIcon
                size={18}
                radius="xl"
                color={MARKS[o.tone].color}
                role="img"
                aria-label={MARKS[o.tone].label}
              >
                <Text size="xs" fw={700} aria-hidden>
                  {MARKS[o.tone].mark}
                </Text>
              </ThemeIcon>
            }
          >
            {o.text}
          </List.Item>
        ))}
      </List>
    </Paper>
  );
}
