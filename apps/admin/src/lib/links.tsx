import {
  Anchor,
  Button,
  NavLink,
  type AnchorProps,
  type ButtonProps,
  type NavLinkProps,
} from "@mantine/core";
import { createLink, type LinkComponent } from "@tanstack/react-router";
import type { AnchorHTMLAttributes, Ref } from "react";

// Mantine's `component={Link}` loses the router's typed `to`/`params`/`search`; createLink keeps them.
type A = AnchorHTMLAttributes<HTMLAnchorElement> & { ref?: Ref<HTMLAnchorElement> };

const MantineAnchor = (props: AnchorProps & A) => <Anchor component="a" {...props} />;
const MantineButton = (props: ButtonProps & A) => <Button component="a" {...props} />;
const MantineNavLink = (props: NavLinkProps & A) => <NavLink component="a" {...props} />;

const RoutedAnchor = createLink(MantineAnchor);
const RoutedButton = createLink(MantineButton);
const RoutedNavLink = createLink(MantineNavLink);

export const AnchorLink: LinkComponent<typeof MantineAnchor> = (props) => (
  <RoutedAnchor preload="intent" {...props} />
);
export const ButtonLink: LinkComponent<typeof MantineButton> = (props) => (
  <RoutedButton preload="intent" {...props} />
);
export const NavLinkRoute: LinkComponent<typeof MantineNavLink> = (props) => (
  <RoutedNavLink preload="intent" {...props} />
);
