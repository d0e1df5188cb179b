import {
  CircleUser,
  Eye,
  EyeOff,
  Languages,
  LogOut,
  Settings,
  Share2,
  User as UserIcon,
  Users,
  Watch,
} from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { useLocation } from "wouter";
import { JOURNAL_MESSAGES } from "../../shared/journals";
import { MESSAGES, signedInAs } from "../../shared/messages";
import { CLIENT_ROUTES } from "../../shared/routes";
import type { User } from "../../shared/schemas";
import {
  Menu,
  MenuButton,
  MenuContent,
  MenuItem,
  MenuLabel,
  MenuSeparator,
} from "../components/ui/menu";
import { toast } from "../components/ui/use-toast";
import { useLogout } from "../features/auth/api/logout";
import { useUpdateVisibility } from "../features/profiles/api/update-visibility";

// Offered by 'Share Profile' on a private profile only: loaded when first opened.
const ShareLinkDialog = lazy(() =>
  import("../features/share-links/components/share-link-dialog").then((m) => ({
    default: m.ShareLinkDialog,
  })),
);

const LanguageDialog = lazy(() =>
  import("../features/account/components/language-dialog").then((m) => ({
    default: m.LanguageDialog,
  })),
);

/** The logged-in user's menu in the top bar. */
export function UserMenu({ user }: { user: User }) {
  const [, navigate] = useLocation();
  const logout = useLogout();
  const visibility = useUpdateVisibility();
  const profileUrl = `/profile/${encodeURIComponent(user.username)}`;
  const [shareLinkOpen, setShareLinkOpen] = useState(false);
  const [languageOpen, setLanguageOpen] = useState(false);

  const shareProfile = async () => {
    // A private profile's address shows others nothing: offer a share link instead (ADR 0019).
    if (!user.isPublic) {
      setShareLinkOpen(true);
      return;
    }
    try {
      await navigator.clipboard.writeText(`${window.location.origin}${profileUrl}`);
      toast({ title: MESSAGES.linkCopied });
    } catch {
      toast({
        title: MESSAGES.copyFailed,
        description: `${window.location.origin}${profileUrl}`,
        variant: "destructive",
      });
    }
  };

  const toggleVisibility = () => {
    const isPublic = !user.isPublic;
    visibility.mutate(
      { isPublic },
      {
        onSuccess: () =>
          toast({ title: isPublic ? MESSAGES.profileNowPublic : MESSAGES.profileNowPrivate }),
        onError: () => toast({ title: MESSAGES.failedUpdateVisibility, variant: "destructive" }),
      },
    );
  };

  const logOut = () => {
    logout.mutate();
  };

  return (
    <>
      {shareLinkOpen ? (
        <Suspense fallback={null}>
          <ShareLinkDialog onClose={() => setShareLinkOpen(false)} />
        </Suspense>
      ) : null}
      {languageOpen ? (
        <Suspense fallback={null}>
          <LanguageDialog onClose={() => setLanguageOpen(false)} />
        </Suspense>
      ) : null}
      <Menu>
        <MenuButton variant="outline" aria-label={MESSAGES.userMenu}>
          <CircleUser className="h-5 w-5" aria-hidden="true" />
          <span className="max-w-40 truncate">{user.displayName || user.username}</span>
        </MenuButton>
        <MenuContent>
          <MenuLabel>{signedInAs(user)}</MenuLabel>
          <MenuSeparator />
          <MenuItem onSelect={() => navigate(profileUrl)}>
            <UserIcon className="h-4 w-4" aria-hidden="true" />
            {MESSAGES.viewProfile}
          </MenuItem>
          <MenuItem onSelect={() => navigate(CLIENT_ROUTES.family)}>
            <Users className="h-4 w-4" aria-hidden="true" />
            {JOURNAL_MESSAGES.familyTitle}
          </MenuItem>
          <MenuItem onSelect={() => navigate("/account")}>
            <Settings className="h-4 w-4" aria-hidden="true" />
            {MESSAGES.account}
          </MenuItem>
          <MenuItem onSelect={() => void shareProfile()}>
            <Share2 className="h-4 w-4" aria-hidden="true" />
            {MESSAGES.shareProfile}
          </MenuItem>
          <MenuItem onSelect={toggleVisibility} disabled={visibility.isPending}>
            {user.isPublic ? (
              <EyeOff className="h-4 w-4" aria-hidden="true" />
            ) : (
              <Eye className="h-4 w-4" aria-hidden="true" />
            )}
            {user.isPublic ? MESSAGES.makeProfilePrivate : MESSAGES.makeProfilePublic}
          </MenuItem>
          <MenuItem onSelect={() => setLanguageOpen(true)}>
            <Languages className="h-4 w-4" aria-hidden="true" />
            {MESSAGES.language}
          </MenuItem>
          <MenuItem onSelect={() => navigate("/watch")}>
            <Watch className="h-4 w-4" aria-hidden="true" />
            {MESSAGES.watchView}
          </MenuItem>
          <MenuSeparator />
          <MenuItem onSelect={logOut} disabled={logout.isPending}>
            <LogOut className="h-4 w-4" aria-hidden="true" />
            {MESSAGES.logOut}
          </MenuItem>
        </MenuContent>
      </Menu>
    </>
  );
}
