// The model-based favorites suite's commands (suites/favorites-model.suite.ts): fast-check commands
// whose random choices resolve against the model of src/checks/favorites-model.ts, and the Session
// that sends each one's call through the test's client, judges the answer (step) and deletes what a
// sequence made. favorites-model-run.ts sets the sequences up and runs them.
import fc from 'fast-check';
import { awaitingLists, favoritedSkus, formatCall, requestOf, type Action, type Failure, type FavoritesModel, type HttpCall, type ModelList } from '../checks/favorites-model.ts';
import { step } from '../checks/favorites-model-steps.ts';
import { refusesAutoListDeletion } from '../checks/favorites.ts';
import { active, ourLists, pick, targets, type Allowance, type World } from '../checks/favorites-model-sequences.ts';
import type { ConformanceContext } from '../harness/conformance.ts';
import { refusesLargePer } from '../harness/large-pages.ts';
import { pathOf } from '../rules/api-paths.ts';

const USER = { auth: 'user' as const };

/** A step that broke a rule: stops the sequence. */
export class ModelFailure extends Error {
  constructor(readonly failure: Failure) {
    super(`[${failure.requirements.join(', ')}] ${failure.message}`);
  }
}

/** What a sequence runs against: the deployment, through the test's client, with a call log. */
export class Session {
  readonly log: string[] = [];
  constructor(
    readonly t: ConformanceContext,
    readonly counter: { spent: number },
  ) {}

  async send(action: Action): Promise<{ status: number; body: unknown }> {
    let call = requestOf(action);
    let response = await this.#call(call);
    // The largest per is not stated (PAG-4): a listing refused at per=100 is asked at the
    // deployment's default page size (what is beyond that page is not judged).
    if (call.query?.['per'] !== undefined && refusesLargePer(response.status)) {
      this.log.push(`${formatCall(call)} -> ${response.status} (per refused: asked again without it)`);
      const { per: _refused, ...query } = call.query;
      call = { ...call, query };
      response = await this.#call(call);
    }
    let body: unknown;
    try {
      body = response.text ? JSON.parse(response.text) : undefined;
    } catch {
      body = undefined;
    }
    this.log.push(`${formatCall(call)} -> ${response.status}`);
    return { status: response.status, body };
  }

  #call(call: HttpCall) {
    this.counter.spent++;
    return this.t.api.request(call.method, call.path, {
      ...USER,
      ...(call.query ? { query: call.query } : {}),
      ...(call.json !== undefined ? { json: call.json } : {}),
    });
  }

  /** Lists of the sequence already journalled. */
  readonly #journalled = new Set<number>();

  async exec(box: { m: FavoritesModel }, action: Action): Promise<void> {
    const answer = await this.send(action);
    const result = step(box.m, action, answer);
    box.m = result.model;
    // Lists the server made along with a favorite: journalled at once, for a run interrupted before cleanup().
    for (const list of box.m.lists) {
      if (!list.ours || list.state === 'gone' || typeof list.id !== 'number' || this.#journalled.has(list.id)) continue;
      this.#journalled.add(list.id);
      await this.t.undoable({ method: 'DELETE', path: pathOf('DELETE /favorite_lists/:id', { id: list.id }) }, `the favorite list ${list.id} a favorites sequence made`);
    }
    if (result.failure) throw new ModelFailure(result.failure);
    // An answer that showed no favorite_list_id (shown on update only, one reading of FAV-8) for
    // a favorite that went into a new list: GET /favorite_lists tells which list, at once (the
    // model needs it for what follows, and the run to delete it).
    if ((action.type === 'createFavorite' || action.type === 'updateFavorite') && awaitingLists(box.m).length) await this.exec(box, { type: 'listLists' });
  }

  /**
   * Deletes the sequence's favorites, then its lists; returns what could not be deleted. An auto
   * list's deletion may be refused (auto lists are managed by the service): it then stays, or
   * goes once empty, which is the service's to decide.
   */
  /** Deletes what the sequence made; returns what could not be deleted, and adds to `deleted` the named custom lists deleted with 204. */
  async cleanup(m: FavoritesModel, deleted: ModelList[] = []): Promise<string[]> {
    const left: string[] = [];
    // A list that may have been dropped (an auto list its last favorite left) is deleted too: 404 is fine.
    const paths: { path: string; auto: boolean; list?: ModelList }[] = [
      ...m.favorites.filter((f) => f.state !== 'gone').map((f) => ({ path: pathOf('DELETE /favorites/:id', { id: f.id }), auto: false })),
      ...m.lists.filter((l) => l.ours && l.state !== 'gone').map((l) => ({ path: pathOf('DELETE /favorite_lists/:id', { id: l.id }), auto: l.kind === 'auto', list: l })),
    ];
    for (const { path, auto, list } of paths) {
      try {
        this.counter.spent++;
        const response = await this.t.api.request('DELETE', path, USER);
        if (auto && refusesAutoListDeletion(response.status)) continue;
        if (list && list.kind === 'custom' && list.name !== null && response.status === 204) deleted.push(list);
        if (response.status !== 204 && response.status !== 404) left.push(`${path} (${response.status})`);
      } catch (error) {
        left.push(`${path} (${error instanceof Error ? error.message : String(error)})`);
      }
    }
    return left;
  }
}

/** The model a sequence runs on, and what the sequences may still spend (none: no limit). */
export type Box = { m: FavoritesModel; allowance?: Allowance };
export type Cmd = fc.AsyncCommand<Box, Session>;

/** A command resolves its random choices against the model: same model, same action. */
abstract class Base implements Cmd {
  abstract resolve(m: FavoritesModel): Action | null;
  /** A command that does not fit in the allowance is skipped. */
  check(box: Readonly<Box>): boolean {
    const action = this.resolve(box.m);
    return action !== null && (box.allowance?.allows(box.m, action) ?? true);
  }
  async run(box: Box, real: Session): Promise<void> {
    await real.exec(box, this.resolve(box.m)!);
  }
  abstract toString(): string;
}

export class CreateFavorite extends Base {
  constructor(
    readonly world: World,
    readonly sku: number,
    readonly name: number | null,
  ) {
    super();
  }
  resolve(m: FavoritesModel): Action | null {
    const taken = favoritedSkus(m);
    const sku = pick(
      this.world.skus.filter((s) => !taken.has(s.id)),
      this.sku,
    );
    if (!sku) return null;
    return { type: 'createFavorite', skuId: sku.id, categoryId: sku.categoryId, ...(this.name !== null ? { newListName: pick(this.world.names, this.name)! } : {}) };
  }
  toString(): string {
    return `CreateFavorite(${this.sku}, ${this.name})`;
  }
}

export class CreateList extends Base {
  constructor(
    readonly world: World,
    readonly name: number,
  ) {
    super();
  }
  resolve(): Action {
    return { type: 'createList', name: pick(this.world.names, this.name)! };
  }
  toString(): string {
    return `CreateList(${this.name})`;
  }
}

export class DeleteList extends Base {
  constructor(readonly n: number) {
    super();
  }
  resolve(m: FavoritesModel): Action | null {
    const list = pick(ourLists(m), this.n);
    return list ? { type: 'deleteList', listId: list.id } : null;
  }
  toString(): string {
    return `DeleteList(${this.n})`;
  }
}

/** PUT have_it=true, with or without a favorite_list_id (row 2). */
export class MakeOwned extends Base {
  constructor(
    readonly n: number,
    readonly list: number | null,
  ) {
    super();
  }
  resolve(m: FavoritesModel): Action | null {
    const f = pick(active(m), this.n);
    if (!f) return null;
    const list = this.list === null ? undefined : pick(targets(m, f.categoryId, null), this.list);
    return { type: 'updateFavorite', favoriteId: f.id, haveIt: true, ...(list !== undefined ? { favoriteListId: list } : {}) };
  }
  toString(): string {
    return `MakeOwned(${this.n}, ${this.list})`;
  }
}

/** PUT favorite_list_id, with have_it absent, false or null (row 3). */
export class Move extends Base {
  constructor(
    readonly n: number,
    readonly list: number,
    readonly haveIt: 'absent' | false | null,
  ) {
    super();
  }
  resolve(m: FavoritesModel): Action | null {
    const f = pick(active(m), this.n);
    if (!f) return null;
    const list = pick(targets(m, f.categoryId, f.listId), this.list);
    if (list === undefined) return null;
    return { type: 'updateFavorite', favoriteId: f.id, favoriteListId: list, ...(this.haveIt !== 'absent' ? { haveIt: this.haveIt } : {}) };
  }
  toString(): string {
    return `Move(${this.n}, ${this.list}, ${String(this.haveIt)})`;
  }
}

/** PUT new_list_name: a name of the run, or the blank one (row 4 and its error). */
export class MoveByName extends Base {
  constructor(
    readonly world: World,
    readonly n: number,
    readonly name: number | 'blank',
  ) {
    super();
  }
  resolve(m: FavoritesModel): Action | null {
    const f = pick(active(m), this.n);
    if (!f) return null;
    return { type: 'updateFavorite', favoriteId: f.id, newListName: this.name === 'blank' ? '' : pick(this.world.names, this.name)! };
  }
  toString(): string {
    return `MoveByName(${this.n}, ${this.name})`;
  }
}

/** DELETE a favorite of the sequence, deleted already or not. */
export class DeleteFavorite extends Base {
  constructor(readonly n: number) {
    super();
  }
  resolve(m: FavoritesModel): Action | null {
    const f = pick(m.favorites, this.n);
    return f ? { type: 'deleteFavorite', favoriteId: f.id } : null;
  }
  toString(): string {
    return `DeleteFavorite(${this.n})`;
  }
}

export class GetFavorite extends Base {
  constructor(readonly n: number) {
    super();
  }
  resolve(m: FavoritesModel): Action | null {
    const f = pick(m.favorites, this.n);
    return f ? { type: 'getFavorite', favoriteId: f.id } : null;
  }
  toString(): string {
    return `GetFavorite(${this.n})`;
  }
}

export class ListLists extends Base {
  resolve(m: FavoritesModel): Action | null {
    return ourLists(m).length || awaitingLists(m).length ? { type: 'listLists' } : null;
  }
  toString(): string {
    return 'ListLists';
  }
}

/** GET /favorites, owned=true or not, in the default order or with order_dir=asc. */
export class ListFavorites extends Base {
  constructor(
    readonly owned: boolean,
    readonly asc: boolean,
  ) {
    super();
  }
  resolve(): Action {
    return { type: 'listFavorites', owned: this.owned, ...(this.asc ? { orderDir: 'asc' as const } : {}) };
  }
  toString(): string {
    return `ListFavorites(${this.owned}, ${this.asc ? 'asc' : 'default'})`;
  }
}

export class ListListFavorites extends Base {
  constructor(readonly n: number) {
    super();
  }
  resolve(m: FavoritesModel): Action | null {
    const list = pick(ourLists(m), this.n);
    return list ? { type: 'listListFavorites', listId: list.id } : null;
  }
  toString(): string {
    return `ListListFavorites(${this.n})`;
  }
}

export function commandArbitraries(world: World): fc.Arbitrary<Cmd>[] {
  const n = fc.nat(7);
  const name = fc.nat(world.names.length - 1);
  const createFavorite = fc.tuple(n, fc.option(name, { freq: 2 })).map(([sku, nm]): Cmd => new CreateFavorite(world, sku, nm));
  const makeOwned = fc.tuple(n, fc.option(n)).map(([i, l]): Cmd => new MakeOwned(i, l));
  const move = fc.tuple(n, n, fc.constantFrom<'absent' | false | null>('absent', false, null)).map(([i, l, h]): Cmd => new Move(i, l, h));
  const moveByName = fc
    .tuple(n, fc.oneof({ arbitrary: name, weight: 3 }, { arbitrary: fc.constant<'blank'>('blank'), weight: 1 }))
    .map(([i, nm]): Cmd => new MoveByName(world, i, nm));
  const deleteFavorite = n.map((i): Cmd => new DeleteFavorite(i));
  const read = fc.oneof(
    n.map((i): Cmd => new GetFavorite(i)),
    fc.constant<Cmd>(new ListLists()),
    fc.tuple(fc.boolean(), fc.boolean()).map(([owned, asc]): Cmd => new ListFavorites(owned, asc)),
    n.map((i): Cmd => new ListListFavorites(i)),
  );
  // Picked with equal chances: the writes that change a favorite come twice.
  return [
    createFavorite,
    createFavorite,
    name.map((nm): Cmd => new CreateList(world, nm)),
    n.map((i): Cmd => new DeleteList(i)),
    makeOwned,
    makeOwned,
    move,
    move,
    moveByName,
    moveByName,
    deleteFavorite,
    deleteFavorite,
    read,
    read,
  ];
}

/** Most sequences open with a favorite (shrinking may drop it), so that few are spent on calls that need one. */
export const openingCommand = (world: World) =>
  fc.option(
    fc.tuple(fc.nat(7), fc.option(fc.nat(world.names.length - 1), { freq: 3 })).map(([sku, nm]) => new CreateFavorite(world, sku, nm)),
    { freq: 8 },
  );
