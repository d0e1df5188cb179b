import { MESSAGES } from "../../../../shared/messages";
import { HomeMemories } from "../../memories/components/home-memories";

export function HomePage() {
  return (
    <div className="space-y-8">
      <h1 className="text-center text-3xl font-bold text-brand-800">{MESSAGES.homeHeader}</h1>
      <HomeMemories />
    </div>
  );
}
