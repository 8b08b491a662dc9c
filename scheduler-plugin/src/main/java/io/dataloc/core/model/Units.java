package io.dataloc.core.model;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Exact arithmetic for costs and loads: every cost and load is a {@code long} count of thousandths
 * of a work unit (a scaled integer). Three decimals cover the papers' parameters (BAR's
 * {@code 1 + 0.1r}, LABL's integer loads) with no rounding anywhere; inputs with more decimals are
 * rejected at the boundary.
 */
public final class Units {
  /** Scaled units per work unit. */
  public static final long SCALE = 1000;

  private Units() {}

  /** Converts a decimal number of work units to scaled units. */
  public static long of(BigDecimal units) {
    BigDecimal scaled = units.multiply(BigDecimal.valueOf(SCALE));
    try {
      return scaled.setScale(0, RoundingMode.UNNECESSARY).longValueExact();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          units.toPlainString() + " has more than 3 decimals or is too large");
    }
  }

  /** Converts whole work units to scaled units. */
  public static long of(long units) {
    return Math.multiplyExact(units, SCALE);
  }

  /** Converts a double that is exactly representable in thousandths (for generated instances). */
  public static long ofDouble(double units) {
    return of(BigDecimal.valueOf(units));
  }

  /** Scaled units back to a decimal, without trailing zeros. */
  public static BigDecimal toDecimal(long scaled) {
    BigDecimal d = BigDecimal.valueOf(scaled, 3).stripTrailingZeros();
    return d.scale() < 0 ? d.setScale(0) : d;
  }

  /** Scaled units as a double (for reports and charts only, never for decisions). */
  public static double toDouble(long scaled) {
    return scaled / (double) SCALE;
  }

  public static String format(long scaled) {
    return toDecimal(scaled).toPlainString();
  }
}
