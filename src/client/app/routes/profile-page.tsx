import { Eye, Lock } from "lucide-react";
import { MESSAGES, profileTitle } from "../../../shared/messages";
import { NotFound } from "../../components/not-found";
import { Badge } from "../../components/ui/badge";
import { PageLoading } from "../../components/ui/page-loading";
import { useUser } from "../../features/auth/api/get-user";
import { ProfileMemories } from "../../features/memories/components/profile-memories";
import { useProfile } from "../../features/profiles/api/get-profile";
import { RelativeNewsForm } from "../../features/profiles/components/relative-news-form";
import { SharedWelcome } from "../../features/profiles/components/shared-welcome";
import { ApiError } from "../../lib/api-client";
import { useMarkRelativeView } from "../../lib/relative-view";
import { useDocumentTitle } from "../../lib/use-document-title";

export function ProfilePage({ username }: { username: string }) {
  const { data: profile, isLoading, error } = useProfile(username);
  const { data: user } = useUser();
  useMarkRelativeView(Boolean(profile?.sharedWithYou));
  const missing = !profile && (!error || (error instanceof ApiError && error.status === 404));
  useDocumentTitle(
    profile
      ? profileTitle(profile)
      : isLoading
        ? MESSAGES.loading
        : missing
          ? MESSAGES.profileNotFound
          : MESSAGES.failedFetchUserProfile,
  );
  if (isLoading) return <PageLoading />;
  if (!profile) {
    const message = missing ? MESSAGES.profileNotFound : MESSAGES.failedFetchUserProfile;
    return <NotFound message={message} title={message} />;
  }
  const isOwner = Boolean(user) && user?.id === profile.id;
  return (
    <div className="space-y-6">
      <div className="space-y-2 text-center">
        <h1 className="text-2xl font-bold text-balance">{profileTitle(profile)}</h1>
        <p className="text-slate-700">{MESSAGES.profileSubtitle}</p>
        {/* The owner's own view: the user record is the fresh one after a visibility toggle. */}
        {isOwner && user ? <VisibilityBadge isPublic={user.isPublic} /> : null}
      </div>
      {profile.sharedWithYou && !user ? (
        <SharedWelcome name={profile.displayName || profile.username} />
      ) : null}
      {/* The memories feature's list of this profile's memories. */}
      <ProfileMemories username={profile.username} isOwner={isOwner} />
      {/* After the memories: a relative looks first, then may ask for news of new ones. */}
      {profile.sharedWithYou && !isOwner ? <RelativeNewsForm username={profile.username} /> : null}
    </div>
  );
}

function VisibilityBadge({ isPublic }: { isPublic: boolean }) {
  return (
    <p
      className="flex flex-wrap items-center justify-center gap-2 text-sm text-slate-700"
      data-testid="profile-visibility"
    >
      <Badge
        className={
          isPublic
            ? "bg-emerald-100 px-3 py-1 text-sm text-emerald-900"
            : "bg-amber-100 px-3 py-1 text-sm text-amber-900"
        }
      >
        {isPublic ? (
          <Eye className="h-4 w-4" aria-hidden="true" />
        ) : (
          <Lock className="h-4 w-4" aria-hidden="true" />
        )}
        {isPublic ? MESSAGES.profilePublic : MESSAGES.profilePrivate}
      </Badge>
      <span>{isPublic ? MESSAGES.profilePublicHint : MESSAGES.profilePrivateHint}</span>
    </p>
  );
}
