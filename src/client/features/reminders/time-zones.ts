import {
  REMINDER_MESSAGES,
  TIME_ZONE_REGIONS,
  timeZoneOptionLabel,
} from "../../../shared/reminder-messages";

/** One zone as the list offers it. */
export interface TimeZoneOption {
  /** The IANA name, as saved. */
  value: string;
  /** "Madrid (UTC+01:00)". */
  label: string;
  /** Minutes ahead of UTC now, for ordering. */
  offsetMinutes: number;
}

export interface TimeZoneGroup {
  label: string;
  options: TimeZoneOption[];
}

/** "+01:00" from Intl's "GMT+01:00" ("GMT" alone is UTC itself). */
function offsetOf(zone: string, now: Date): { text: string; minutes: number } {
  try {
    const name =
      new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })
        .formatToParts(now)
        .find((part) => part.type === "timeZoneName")?.value ?? "GMT";
    const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
    if (!match) return { text: "+00:00", minutes: 0 };
    const minutes = (Number(match[2]) * 60 + Number(match[3])) * (match[1] === "-" ? -1 : 1);
    return { text: `${match[1]}${match[2]}:${match[3]}`, minutes };
  } catch {
    return { text: "+00:00", minutes: 0 };
  }
}

/** "America/Argentina/Buenos_Aires" is "Buenos Aires, Argentina"; "UTC" stays "UTC". */
function cityOf(zone: string): string {
  const parts = zone.split("/").map((part) => part.replaceAll("_", " "));
  if (parts.length <= 1) return zone;
  return parts.length > 2
    ? `${parts.at(-1)}, ${parts.slice(1, -1).join(", ")}`
    : (parts[1] ?? zone);
}

function optionOf(zone: string, now: Date): TimeZoneOption {
  const offset = offsetOf(zone, now);
  return {
    value: zone,
    label: timeZoneOptionLabel(cityOf(zone), offset.text),
    offsetMinutes: offset.minutes,
  };
}

/**
 * Every zone the browser knows (and `extra`, e.g. a saved one it does not list), grouped by region
 * and labelled with its city and offset now; the browser's own zone comes first, alone in its
 * group. Pure: tests give the zones and the moment.
 */
export function groupTimeZones(
  zones: readonly string[],
  browserZone: string,
  now: Date,
  extra: readonly string[] = [],
): TimeZoneGroup[] {
  const byRegion = new Map<string, TimeZoneOption[]>();
  for (const zone of new Set([...zones, ...extra, "UTC"])) {
    if (zone === browserZone) continue;
    const region = zone.includes("/") ? (zone.split("/")[0] ?? "") : "";
    const label = TIME_ZONE_REGIONS[region] ?? REMINDER_MESSAGES.otherTimeZones;
    const group = byRegion.get(label) ?? [];
    group.push(optionOf(zone, now));
    byRegion.set(label, group);
  }
  const regions = [...byRegion.entries()]
    .sort(([a], [b]) =>
      a === REMINDER_MESSAGES.otherTimeZones
        ? 1
        : b === REMINDER_MESSAGES.otherTimeZones
          ? -1
          : a.localeCompare(b),
    )
    .map(([label, options]) => ({
      label,
      options: options.sort((a, b) => a.label.localeCompare(b.label)),
    }));
  return [
    { label: REMINDER_MESSAGES.yourTimeZone, options: [optionOf(browserZone, now)] },
    ...regions,
  ];
}

/**
 * The groups for this browser, made once per page (about 400 zones, each formatted by Intl); a zone
 * outside them (a saved alias) is added to a copy.
 */
export class TimeZoneList {
  private groups: TimeZoneGroup[] | undefined;

  constructor(
    private readonly browserZone: () => string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  groupsWith(current: string): TimeZoneGroup[] {
    this.groups ??= groupTimeZones(supportedZones(), this.browserZone(), this.now());
    const known = this.groups.some((group) => group.options.some((o) => o.value === current));
    return known
      ? this.groups
      : groupTimeZones(supportedZones(), this.browserZone(), this.now(), [current]);
  }
}

function supportedZones(): string[] {
  return typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
}
