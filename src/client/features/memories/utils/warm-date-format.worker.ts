// Builds a recorded-date formatter off the page's thread (see warm-date-format.ts), then says so.
import { RECORDED_AT_FORMAT } from "./date-time";

new Intl.DateTimeFormat(undefined, RECORDED_AT_FORMAT).format(0);
postMessage("ready");
