// The large page the kit asks for where it wants few requests, and what it does when a deployment
// refuses it. "Maximum value of per: not shown" (Endpoints > General rules 2, PAG-4): a per above
// a deployment's maximum may be clamped (meta.pagination.per says what applied) or refused with
// 400 or 422. The kit asks per=100; refused, it asks again without per, at the deployment's default
// page size, and pages on from there. Any suite that reads a collection at per=100 can use it.
import type { HttpResponse, Query } from '../http/client.ts';
import type { ApiClient, ApiRequestOptions } from './api.ts';

/** The per the kit asks when it wants the fewest pages. */
export const LARGE_PER = 100;

/** Whether a status is a refusal of a per above the deployment's maximum: 400 (an incorrect parameter) or 422. */
export function refusesLargePer(status: number): boolean {
  return status === 400 || status === 422;
}

/**
 * The first page of a collection at per=100 (the other parameters of `options.query` kept); when
 * the deployment refuses that per, the same GET without per (its default page size). `query` is
 * the query that got the answer: the next pages are asked alike, with page=.
 */
export async function firstLargePage(api: ApiClient, path: string, options: ApiRequestOptions = {}): Promise<{ response: HttpResponse; query: Query }> {
  const large: Query = { ...options.query, per: LARGE_PER };
  const response = await api.get(path, { ...options, query: large });
  if (!refusesLargePer(response.status)) return { response, query: large };
  const { per: _refused, ...query } = large;
  return { response: await api.get(path, { ...options, query }), query };
}
