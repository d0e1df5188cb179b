import * as ToastPrimitive from "@radix-ui/react-toast";
import { X } from "lucide-react";
import {
  TOAST_DURATION_MS,
  TOAST_HOTKEY,
  TOAST_SWIPE_DIRECTION,
  TOAST_SWIPE_THRESHOLD_PX,
} from "../../../shared/constants";
import { formatMessage } from "../../../shared/i18n/format";
import { MESSAGES } from "../../../shared/messages";
import { cn } from "../../lib/cn";
import { dismissToast, useToasts } from "./use-toast";

/** The toast area of every screen: spec 9's limit, duration, swipe and F8 hotkey. */
export function Toaster() {
  const toasts = useToasts();
  return (
    <ToastPrimitive.Provider
      duration={TOAST_DURATION_MS}
      swipeDirection={TOAST_SWIPE_DIRECTION}
      swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}
      label={MESSAGES.notification}
    >
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          open={t.open}
          duration={t.duration}
          onOpenChange={(open) => {
            if (!open) dismissToast(t.id);
          }}
          className={cn(
            "pointer-events-auto relative flex w-full items-start justify-between gap-3 rounded-lg border p-4 pe-14 shadow-lg",
            "data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[state=closed]:opacity-0 transition",
            t.variant === "destructive"
              ? "border-red-700 bg-red-700 text-white"
              : "border-slate-200 bg-white text-slate-900",
          )}
        >
          <div className="grid gap-1">
            {t.title ? (
              <ToastPrimitive.Title className="text-sm font-semibold">
                {t.title}
              </ToastPrimitive.Title>
            ) : null}
            {t.description ? (
              <ToastPrimitive.Description className="text-sm opacity-90">
                {t.description}
              </ToastPrimitive.Description>
            ) : null}
          </div>
          {t.action ? (
            <ToastPrimitive.Action
              altText={t.action.label}
              onClick={t.action.onClick}
              className={cn(
                "inline-flex min-h-11 min-w-11 shrink-0 items-center justify-center rounded-md border px-3 text-sm font-medium",
                t.variant === "destructive"
                  ? "border-white/70 hover:bg-red-800"
                  : "border-slate-300 hover:bg-slate-50",
              )}
            >
              {t.action.label}
            </ToastPrimitive.Action>
          ) : null}
          <ToastPrimitive.Close
            aria-label={MESSAGES.close}
            className="absolute top-1 end-1 inline-flex h-11 w-11 items-center justify-center rounded opacity-70 hover:opacity-100"
          >
            <X className="h-4 w-4" aria-hidden="true" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport
        hotkey={TOAST_HOTKEY}
        label={formatMessage(MESSAGES.notificationsRegion, { hotkey: TOAST_HOTKEY.join("+") })}
        className="fixed end-0 bottom-0 z-[100] flex max-h-screen w-full flex-col gap-2 p-4 sm:max-w-[420px]"
      />
    </ToastPrimitive.Provider>
  );
}
