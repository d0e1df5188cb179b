import { ChevronDown } from "lucide-react";
import { useId, useState } from "react";
import { SCORE_DIMENSIONS, SCORE_MAX, type ScoreDimension } from "../../../../shared/constants";
import { MESSAGES } from "../../../../shared/messages";
import { scoreBarPercent } from "../../../../shared/rules";
import type { Scores } from "../../../../shared/schemas";
import { Card } from "../../../components/ui/card";

/** Each score's name in the catalogue, read when the scores show. */
const SCORE_NAMES: Record<ScoreDimension, keyof typeof MESSAGES> = {
  meaningfulness: "scoreMeaningfulness",
  cuteness: "scoreCuteness",
  excitement: "scoreExcitement",
  interest: "scoreInterest",
  uniqueness: "scoreUniqueness",
  overall: "scoreOverall",
};

function label(name: ScoreDimension): string {
  return MESSAGES[SCORE_NAMES[name]];
}

/**
 * The collapsible 'Memory Scores' (a disclosure button): each name with value/10 and a bar of
 * value x10 percent, shown only while open.
 */
export function MemoryScores({ scores }: { scores: Scores }) {
  const [open, setOpen] = useState(false);
  const contentId = useId();
  return (
    <Card>
      <button
        type="button"
        className="flex min-h-11 w-full items-center justify-between text-start text-lg font-semibold"
        aria-expanded={open}
        aria-controls={open ? contentId : undefined}
        onClick={() => setOpen((wasOpen) => !wasOpen)}
      >
        {MESSAGES.memoryScores}
        <ChevronDown
          className={`h-5 w-5 transition-transform ${open ? "rotate-180" : ""}`}
          aria-hidden="true"
        />
      </button>
      {open && (
        <dl id={contentId} className="mt-4 space-y-3">
          {SCORE_DIMENSIONS.map((name) => {
            const value = scores[name];
            return (
              <div key={name} className="grid grid-cols-[1fr_auto] gap-x-2 gap-y-1 text-sm">
                <dt>{label(name)}</dt>
                <dd>{`${value}/${SCORE_MAX}`}</dd>
                <dd
                  className="col-span-2 h-2 overflow-hidden rounded-full bg-brand-100"
                  aria-hidden="true"
                >
                  <div
                    className="h-full rounded-full bg-brand-700"
                    data-testid={`score-bar-${name}`}
                    style={{ width: `${scoreBarPercent(value)}%` }}
                  />
                </dd>
              </div>
            );
          })}
        </dl>
      )}
    </Card>
  );
}
