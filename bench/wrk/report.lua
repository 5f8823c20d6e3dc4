-- The line every wrk script prints when done, in the shape bench/run reads: tps, p50 and p99 in ms, counts.
function done(summary, latency, requests)
  io.write(string.format("tps=%.1f p50_ms=%.3f p99_ms=%.3f ok=%d errors=%d\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.requests, summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write
      + summary.errors.timeout))
end
