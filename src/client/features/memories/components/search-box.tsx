import { Search } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { SEARCH_MAX_LENGTH } from "../../../../shared/constants";
import { MESSAGES } from "../../../../shared/messages";
import { Input } from "../../../components/ui/input";

/**
 * The search box; reports the text a moment after typing stops. `value` is the search in force
 * (from the URL): the box starts with it and follows it when it changes from outside (Back).
 */
export function SearchBox({
  value = "",
  onSearch,
  placeholder = MESSAGES.searchPlaceholder,
}: {
  value?: string;
  onSearch: (text: string) => void;
  placeholder?: string;
}) {
  const [text, setText] = useState(value);
  // What the box last reported, so its own reports coming back as `value` do not reset the text.
  const reported = useRef(value);
  useEffect(() => {
    if (value.trim() === reported.current.trim()) return;
    reported.current = value;
    setText(value);
  }, [value]);
  useEffect(() => {
    const timer = setTimeout(() => {
      reported.current = text;
      onSearch(text);
    }, 250);
    return () => clearTimeout(timer);
  }, [text, onSearch]);
  return (
    <div className="relative">
      <Search
        className="pointer-events-none absolute top-1/2 start-3 h-4 w-4 -translate-y-1/2 text-slate-600"
        aria-hidden="true"
      />
      <Input
        type="search"
        className="ps-9"
        placeholder={placeholder}
        aria-label={placeholder}
        maxLength={SEARCH_MAX_LENGTH}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
    </div>
  );
}
