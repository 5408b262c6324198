import { createTheme, Modal, Notification, type CSSVariablesResolver } from "@mantine/core";

// Shade 8 of indigo passes WCAG AA contrast for white text on filled buttons; autoContrast picks dark
// text on light fills (yellow badges).
export const theme = createTheme({
  primaryColor: "indigo",
  primaryShade: 8,
  autoContrast: true,
  // Users who ask their system for less motion get none (notifications, modals, menus).
  respectReducedMotion: true,
  defaultRadius: "sm",
  components: {
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { "aria-label": "Close" } } }),
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { "aria-label": "Close" } } }),
  },
});

/** Mantine's "dimmed" grey and its error red are below AA contrast on white; one shade darker passes. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    "--mantine-color-dimmed": "var(--mantine-color-gray-7)",
    "--mantine-color-error": "var(--mantine-color-red-9)",
  },
  dark: {},
});
