import { Pencil } from "lucide-react";
import { useState } from "react";
import { MAX_TAGS } from "../../../../shared/constants";
import { MESSAGES, tagsUsedLabel } from "../../../../shared/messages";
import type { Memory } from "../../../../shared/schemas";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { toast, toastError } from "../../../components/ui/use-toast";

import { toUpdateBody, useUpdateMemory } from "../api/update-memory";
import { TagEditor } from "./tag-editor";

/** The Tags card: badges for everyone; the owner's edit toggle saves each change at once. */
export function MemoryTagsCard({ memory, isOwner }: { memory: Memory; isOwner: boolean }) {
  const [editing, setEditing] = useState(false);
  const update = useUpdateMemory();

  const save = async (tags: string[], change: { added?: string; removed?: string }) => {
    try {
      await update.mutateAsync({ id: memory.id, body: toUpdateBody(memory, { tags }) });
      toast({ title: change.added !== undefined ? MESSAGES.tagAdded : MESSAGES.tagRemoved });
      return true;
    } catch (error) {
      toastError(MESSAGES.failedUpdateTags, error);
      return false;
    }
  };

  return (
    <Card className="space-y-3">
      <div className="flex items-center justify-between">
        <h2 className="text-lg font-semibold">{MESSAGES.tags}</h2>
        {isOwner ? (
          <Button
            variant={editing ? "secondary" : "ghost"}
            size="sm"
            className="min-h-11"
            aria-pressed={editing}
            onClick={() => setEditing((value) => !value)}
          >
            <Pencil className="h-4 w-4" aria-hidden="true" />
            {editing ? MESSAGES.done : MESSAGES.editTags}
          </Button>
        ) : null}
      </div>
      {isOwner && editing ? (
        <TagEditor tags={memory.tags} onChange={save} disabled={update.isPending} />
      ) : (
        <>
          {memory.tags.length > 0 ? (
            <ul className="flex flex-wrap gap-2" aria-label={MESSAGES.tags}>
              {memory.tags.map((tag) => (
                <li key={tag}>
                  <Badge>{tag}</Badge>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-700">{MESSAGES.noTagsYet}</p>
          )}
          {isOwner ? (
            <p className="text-xs text-slate-700">{tagsUsedLabel(memory.tags.length, MAX_TAGS)}</p>
          ) : null}
        </>
      )}
    </Card>
  );
}
