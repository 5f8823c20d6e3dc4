package dev.engram;

import io.restassured.RestAssured;
import io.restassured.filter.Filter;
import io.restassured.filter.OrderedFilter;
import io.restassured.filter.FilterContext;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;

/**
 * Every RestAssured request of the tests carries the test profile's operator key ({@code %test.engram.admin-key}),
 * unless the test sends an {@code Authorization} of its own (then that one goes) or adds {@link #NO_TOKEN} (then
 * none does). {@link OperatorKeyByDefault} installs it before every test class.
 */
public final class TestAuth {

    /** The operator key of the test profile; application.properties sets the same. */
    public static final String OPERATOR_KEY = "test-operator-key-0123456789abcdef-not-secret";

    /** Removes the {@code Authorization} header from a request: {@code given().filter(TestAuth.NO_TOKEN)}. */
    public static final Filter NO_TOKEN = (request, response, ctx) -> {
        request.removeHeader("Authorization");
        return ctx.next(request, response);
    };

    /**
     * Adds the operator key to a request that has no {@code Authorization}. It runs before every other filter, so a
     * request's own header or {@link #NO_TOKEN} decides. A filter rather than a default request specification, which
     * would also fix the port before Quarkus sets it.
     */
    static final OrderedFilter DEFAULT_TOKEN = new OrderedFilter() {
        @Override
        public Response filter(FilterableRequestSpecification request, FilterableResponseSpecification response,
                FilterContext ctx) {
            if (!request.getHeaders().hasHeaderWithName("Authorization")) {
                request.header("Authorization", "Bearer " + OPERATOR_KEY);
            }
            return ctx.next(request, response);
        }

        @Override
        public int getOrder() {
            return OrderedFilter.HIGHEST_PRECEDENCE;
        }
    };

    private TestAuth() {
    }

    /** Makes the operator key the default header of every request, once per class loader. */
    public static synchronized void install() {
        if (!RestAssured.filters().contains(DEFAULT_TOKEN)) {
            RestAssured.filters(DEFAULT_TOKEN);
        }
    }
}
