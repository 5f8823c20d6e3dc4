package dev.engram.contexts;

/**
 * What a compaction did: the fill before and the estimated fill after, in percent of the effective maximum. It is
 * reported even when nothing shrank; {@code afterPercent} is 0 when the effective maximum is 0 or less.
 */
public record CompactionResult(double beforePercent, double afterPercent) {
}
