-- GET the path wrk is given; reports like write.lua.
function done(summary, latency, requests)
  io.write(string.format("tps=%.1f p50_ms=%.3f p99_ms=%.3f ok=%d errors=%d\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.requests, summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write
      + summary.errors.timeout))
end
