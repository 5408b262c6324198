import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useState } from "react";

/**
 * "Deactivate offline…": asks first, since the app stops at once and the receipt is the seat's only way
 * back; `onConfirm` runs the bridge call (its error shows where the caller shows errors).
 */
export function DeactivateOffline({ loading, onConfirm }: { loading: boolean; onConfirm: () => void }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Button variant="outline" color="red" loading={loading} onClick={() => setConfirming(true)}>
        Deactivate offline…
      </Button>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title="Deactivate Acme Editor on this computer?"
        centered
        closeButtonProps={{ "aria-label": "Close" }}
      >
        <Stack>
          <Text size="sm">
            Acme Editor stops working here at once. You get a deactivation receipt: give it to your vendor,
            who frees this computer&apos;s seat with it. It cannot be made again, so keep it until it has been
            handed in.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)} data-autofocus>
              Cancel
            </Button>
            <Button
              color="red"
              onClick={() => {
                setConfirming(false);
                onConfirm();
              }}
            >
              Deactivate offline
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
