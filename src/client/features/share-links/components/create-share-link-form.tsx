import { useState } from "react";
import { formatMessage } from "../../../../shared/i18n/format";
import {
  type CreatedShareLink,
  createShareLinkBodySchema,
  SHARE_MESSAGES,
} from "../../../../shared/share-links";
import { Button } from "../../../components/ui/button";
import { Notice } from "../../../components/ui/notice";
import { TextField } from "../../../components/ui/text-field";
import { toast, toastError } from "../../../components/ui/use-toast";

import { useLoopbackLinkBase } from "../../../lib/app-info";
import { useForm } from "../../../lib/use-form";
import { useCreateShareLink } from "../api/create-share-link";
import { CreatedLink } from "./created-link";

/** Name a link (and optionally mail it); then its address is shown once, with a copy button. */
export function CreateShareLinkForm() {
  const create = useCreateShareLink();
  const loopback = useLoopbackLinkBase();
  const [created, setCreated] = useState<CreatedShareLink | null>(null);
  const form = useForm(createShareLinkBodySchema, { label: "", email: "" }, (data) => {
    create.mutate(data, {
      onSuccess: (link) => {
        setCreated(link);
        form.reset();
        toast({
          title: link.mailed ? SHARE_MESSAGES.createdAndMailed : SHARE_MESSAGES.created,
        });
      },
      onError: (error) => toastError(SHARE_MESSAGES.createFailed, error),
    });
  });
  return (
    <div className="space-y-4">
      {loopback ? (
        <Notice testId="loopback-warning">
          {formatMessage(SHARE_MESSAGES.loopbackWarning, { base: loopback })}
        </Notice>
      ) : null}
      <form className="grid gap-4" onSubmit={form.onSubmit} noValidate>
        <TextField
          label={SHARE_MESSAGES.labelField}
          placeholder={SHARE_MESSAGES.labelPlaceholder}
          autoComplete="off"
          {...form.field("label")}
        />
        <TextField
          label={SHARE_MESSAGES.emailField}
          type="email"
          autoComplete="off"
          {...form.field("email")}
        />
        <div>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? SHARE_MESSAGES.creating : SHARE_MESSAGES.create}
          </Button>
        </div>
      </form>
      {created ? <CreatedLink label={created.label} url={created.url} /> : null}
    </div>
  );
}
