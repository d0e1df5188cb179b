import { MESSAGES, profileTitle } from "../../../../shared/messages";
import { PageLoading } from "../../../components/ui/page-loading";
import { ApiError } from "../../../lib/api-client";
import { ProfileMemories } from "../../memories/components/profile-memories";
import { useProfile } from "../api/get-profile";

export function ProfilePage({ username }: { username: string }) {
  const { data: profile, isLoading, error } = useProfile(username);
  if (isLoading) return <PageLoading />;
  if (!profile) {
    const missing = error instanceof ApiError && error.status === 404;
    return (
      <div className="py-8 text-center">
        <h1 className="text-2xl font-bold">
          {missing || !error ? MESSAGES.profileNotFound : MESSAGES.failedFetchUserProfile}
        </h1>
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <div className="space-y-2 text-center">
        <h1 className="text-2xl font-bold">{profileTitle(profile)}</h1>
        <p className="text-slate-700">{MESSAGES.profileSubtitle}</p>
      </div>
      {/* The memories feature's list of this profile's memories. */}
      <ProfileMemories username={profile.username} />
    </div>
  );
}
