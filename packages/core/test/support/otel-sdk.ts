import { context, metrics, propagation, trace, type Attributes } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type DataPoint,
  type MetricData,
} from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";

/**
 * Registers the OpenTelemetry SDK globally, as an app's NodeSDK would, with in-memory exporters:
 * spans as they end, metrics when `metrics()` collects (cumulative). Without this the API is the
 * no-op default.
 */
export function installOtelSdk() {
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Never exports on its own within a test: `metrics()` flushes on demand.
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);

  async function collect(): Promise<MetricData[]> {
    metricExporter.reset();
    await reader.forceFlush();
    return metricExporter.getMetrics().flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
  }

  return {
    async spans(): Promise<ReadableSpan[]> {
      await tracerProvider.forceFlush();
      return spanExporter.getFinishedSpans();
    },
    metrics: collect,
    /** The data points of one metric, as `{ attributes, value }`. */
    async points(name: string): Promise<Array<{ attributes: Attributes; value: DataPoint<unknown>["value"] }>> {
      const metric = (await collect()).find((m) => m.descriptor.name === name);
      return (metric?.dataPoints ?? []).map((p: DataPoint<unknown>) => ({ attributes: p.attributes, value: p.value }));
    },
    /** Everything exported, as one string: names, attributes, events and metric attributes. */
    async everythingExported(): Promise<string> {
      const spans = (await this.spans()).map((s) => ({
        name: s.name,
        attributes: s.attributes,
        events: s.events,
        status: s.status,
      }));
      const points = (await collect()).map((m) => ({
        name: m.descriptor.name,
        points: m.dataPoints.map((p: DataPoint<unknown>) => p.attributes),
      }));
      return JSON.stringify({ spans, points });
    },
    async uninstall(): Promise<void> {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      trace.disable();
      metrics.disable();
      propagation.disable();
      context.disable();
    },
  };
}
export type OtelSdk = ReturnType<typeof installOtelSdk>;
