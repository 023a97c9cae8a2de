import { metrics, type Counter, type Histogram, type Meter, type MeterProvider } from "@opentelemetry/api";
import { INSTRUMENTATION_SCOPE, SCOPE_VERSION } from "./tracing.js";

/** Bucket bounds in seconds recommended by the HTTP semantic conventions for request durations. */
const DURATION_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

export interface VitrinaInstruments {
  meter: Meter;
  /** Leads by `vitrina.lead.outcome` (accepted, duplicate, rejected, failed) and `error.type`. */
  leads: Counter;
  /** Finished delivery attempts by `vitrina.webhook.outcome` (succeeded, retry_scheduled, failed). */
  deliveries: Counter;
  /** The receiver's whole exchange, in seconds, per HTTP attempt. */
  deliveryDuration: Histogram;
}

let cached: { provider: MeterProvider; instruments: VitrinaInstruments } | null = null;

/**
 * The instruments of the meter provider registered now. The metrics API has no proxy (a meter
 * taken before the SDK starts stays a no-op forever), so they are made lazily and made again if
 * the app swaps its provider.
 */
export function instruments(): VitrinaInstruments {
  const provider = metrics.getMeterProvider();
  if (cached?.provider === provider) return cached.instruments;
  const meter = provider.getMeter(INSTRUMENTATION_SCOPE, SCOPE_VERSION);
  const made: VitrinaInstruments = {
    meter,
    leads: meter.createCounter("vitrina.leads", {
      description: "Leads received by the intake, by outcome",
      unit: "{lead}",
    }),
    deliveries: meter.createCounter("vitrina.webhook.deliveries", {
      description: "Webhook delivery attempts (and deliveries ended without one), by outcome",
      unit: "{delivery}",
    }),
    deliveryDuration: meter.createHistogram("vitrina.webhook.delivery.duration", {
      description: "Duration of one webhook POST: connect, headers and the read body prefix",
      unit: "s",
      advice: { explicitBucketBoundaries: DURATION_BUCKETS_S },
    }),
  };
  cached = { provider, instruments: made };
  return made;
}
