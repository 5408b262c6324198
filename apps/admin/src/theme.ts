import { createTheme } from "@mantine/core";

// Indigo passes WCAG AA contrast for white text on filled buttons; Mantine's default blue does not.
export const theme = createTheme({ primaryColor: "indigo", primaryShade: 8, defaultRadius: "sm" });
