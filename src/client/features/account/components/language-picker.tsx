import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  currentLanguage,
  isLanguage,
  LANGUAGE_NAMES,
  LANGUAGES,
  type Language,
} from "../../../../shared/i18n/languages";
import { MESSAGES } from "../../../../shared/messages";
import type { User } from "../../../../shared/schemas";
import { SelectField } from "../../../components/ui/select-field";
import { toastError } from "../../../components/ui/use-toast";
import { hasPageLanguage, switchLanguage } from "../../../lib/language";
import { userKeys } from "../../auth/api/get-user";
import { updateAccount } from "../api/update-account";

/**
 * The language switcher (the footer, the user menu's dialog): each language named in itself. A
 * logged-in person's choice is their account's, so their mails follow it; the page then reloads
 * speaking it. A page that speaks a language of its own (a storyteller's link page, which has its
 * own choice) shows none.
 */
export function LanguagePicker({ hideLabel = false }: { hideLabel?: boolean }) {
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  if (hasPageLanguage()) return null;
  const choose = async (value: string) => {
    if (!isLanguage(value) || value === currentLanguage()) return;
    const user = queryClient.getQueryData<User | null>(userKeys.session);
    setSaving(true);
    try {
      if (user) await updateAccount({ language: value });
      switchLanguage(value);
    } catch (error) {
      setSaving(false);
      toastError(MESSAGES.languageFailed, error);
    }
  };
  return (
    <SelectField
      label={MESSAGES.language}
      hideLabel={hideLabel}
      value={currentLanguage()}
      disabled={saving}
      onChange={(value) => void choose(value)}
    >
      {LANGUAGES.map((language: Language) => (
        <option key={language} value={language} lang={language}>
          {LANGUAGE_NAMES[language]}
        </option>
      ))}
    </SelectField>
  );
}
