import { Search } from "lucide-react";
import { useEffect, useState } from "react";
import { SEARCH_MAX_LENGTH } from "../../../../shared/constants";
import { MESSAGES } from "../../../../shared/messages";
import { Input } from "../../../components/ui/input";

/** The search box; reports the text a moment after typing stops. */
export function SearchBox({ onSearch }: { onSearch: (text: string) => void }) {
  const [text, setText] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => onSearch(text), 250);
    return () => clearTimeout(timer);
  }, [text, onSearch]);
  return (
    <div className="relative">
      <Search
        className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-600"
        aria-hidden="true"
      />
      <Input
        type="search"
        className="pl-9"
        placeholder={MESSAGES.searchPlaceholder}
        aria-label={MESSAGES.searchPlaceholder}
        maxLength={SEARCH_MAX_LENGTH}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
    </div>
  );
}
