import { CircleUser } from "lucide-react";
import { type ComponentPropsWithoutRef, forwardRef } from "react";
import { MESSAGES } from "../../shared/messages";
import type { User } from "../../shared/schemas";
import { Button } from "../components/ui/button";

/**
 * The user menu's button: rendered at first paint by the top bar (so nothing moves), and as the
 * trigger of the menu once the menu's code has loaded.
 */
export const UserMenuButton = forwardRef<
  HTMLButtonElement,
  { user: User } & ComponentPropsWithoutRef<"button">
>(function UserMenuButton({ user, ...props }, ref) {
  return (
    <Button ref={ref} variant="outline" aria-label={MESSAGES.userMenu} {...props}>
      <CircleUser className="h-5 w-5" aria-hidden="true" />
      <span className="max-w-40 truncate">{user.displayName || user.username}</span>
    </Button>
  );
});
