import { MESSAGES } from "../../../../shared/messages";
import { ProfileMemories } from "../../memories/components/profile-memories";

export function ProfilePage({ username }: { username: string }) {
  return (
    <div className="space-y-2 text-center">
      <h1 className="text-2xl font-bold">{`${username}'s Memories`}</h1>
      <p className="text-slate-700">{MESSAGES.profileSubtitle}</p>
      <ProfileMemories username={username} />
    </div>
  );
}
