// Records of the reference data.
//
// Convention: a field spelled in snake_case is the spec's JSON field of the same name, holding
// the value the latest version (3.2.1) shows; serializers copy it (and drop what an older
// version lacks, see versioning.ts). A camelCase field is internal (relations, ordering keys,
// filter attributes) and never reaches a response as such.
//
// Fields whose value depends on who asks (favorited, voted, flagged, helpful, own_review, blp)
// are not stored: serializers compute them for the requesting user.

export type LayoutMode = 'list' | 'tiles' | 'wide_tiles';

/** Spec "Category" (the tree is built by data.ts). */
export interface CategoryRecord {
  readonly id: number;
  readonly name: string;
  /** 0 for the root. */
  readonly parentId: number;
  readonly childIds: readonly number[];
  /** 0 for the root. */
  readonly depth: number;
  /** Ids from the root down to this category. */
  readonly pathIds: readonly number[];
  readonly imageUrl: string | null;
  readonly fashion: boolean;
  readonly layoutMode: LayoutMode;
  readonly webUri: string;
  readonly code: string;
  readonly showSpecifications: boolean;
  readonly manufacturerTitle: string;
  readonly familyId: number;
  readonly showManufacturersFilter: boolean;
  readonly adult: boolean;
  readonly onclickBehaviour: string;
  readonly showSpecSummary: boolean;
  readonly unitPriceLabel: string;
  readonly reviewable: boolean;
  readonly comparable: boolean;
}

/** Spec "Manufacturer". */
export interface ManufacturerRecord {
  id: number;
  name: string;
  image_url: string | null;
  /** Ordering key for order_by=popularity (higher is more popular). */
  popularity: number;
  /** OEM manufacturers are not returned for tiles-layout categories (Change history 3.2.0). */
  oem: boolean;
}

export interface ShopPaymentMethods {
  credit_card: boolean;
  paypal: boolean;
  bank: boolean;
  spot_cash: boolean;
  installments: string;
}

export interface ShopShipping {
  free: boolean;
  free_from: number | null;
  free_from_info: string | null;
  min_price: string;
  shipping_cost_enabled: boolean;
}

/** Spec "Shop". */
export interface ShopRecord {
  id: number;
  name: string;
  link: string;
  phone: string;
  image_url: string;
  thumbshot_url: string;
  web_uri: string;
  reviews_count: number;
  latest_reviews_count: number;
  /** Rounded to 1 decimal. */
  review_score: number;
  payment_methods: ShopPaymentMethods;
  shipping: ShopShipping;
  extra_info: { time_on_platform: string; orders_per_week: string };
  top_positive_reasons: string[];
  /** Shipping cost (blp.shipping_cost) when the shop sets no exact expenses on a product. */
  shippingCost: number;
  /** Cost of the personalization's payment method at this shop (blp.payment_method_cost); null: not offered. */
  paymentMethodCost: Readonly<Record<string, number | null>>;
  zeroCommissionInstallments: boolean;
  locationIds: number[];
}

/** Spec "Shop review". */
export interface ShopReviewRecord {
  id: number;
  user_id: number;
  review: string;
  rating: number;
  shop_reply: string | null;
  created_at: string;
  negative: boolean;
  reasons: string[];
  shopId: number;
  /** Counted in latest_reviews_count (the reviews used for the score). */
  latest: boolean;
}

/** Embedded address of a shop location; every field null when the location is unstructured. */
export interface LocationAddress {
  id: number;
  street_number: string | null;
  street: string | null;
  postcode: string | null;
  city: string | null;
  region: string | null;
  country: string | null;
}

/** Spec "Shop location". */
export interface LocationRecord {
  id: number;
  headquarter: boolean;
  pickup_point: boolean;
  store: boolean;
  phones: string[];
  full_address: string;
  format: 'structured' | 'unstructured';
  lat: string;
  lng: string;
  info: string;
  address: LocationAddress;
  shopId: number;
}

export interface SkuImages {
  main: string;
  alternatives: string[];
}

/** Spec "SKU". */
export interface SkuRecord {
  id: number;
  ean: string;
  pn: string;
  name: string;
  display_name: string;
  category_id: number;
  first_product_shop_info: string | null;
  click_url: string | null;
  price_max: number;
  price_min: number;
  reviewscore: number;
  shop_count: number;
  plain_spec_summary: string;
  manufacturer_id: number;
  future: boolean;
  reviews_count: number;
  virtual: boolean;
  images: SkuImages;
  web_uri: string;
  comparable: boolean;
  reviewable: boolean;
  name_source: string;
  sizes: string[] | null;
  ecommerce_enabled: boolean;
  /** The spec gives no type; the reference sends a string such as "12.40 per kg" or null. */
  unit_price: string | null;
  /** Truncated; the full text is fullDescription. */
  description: string;
  fullDescription: string | null;
  /** Ordering keys of the category SKU listing and manufacturer SKU listing. */
  popularity: number;
  rank: number;
  /** When the SKU was added (ms since the epoch); too-new SKUs have no price history. */
  addedAt: number;
  /** Spec values of this SKU: specification id -> values. */
  specValues: ReadonlyMap<number, string[]>;
  /** Filter ids (keys of available_filters.filters) this SKU matches. */
  filterIds: number[];
}

export interface ProductSize {
  /** The size as the shop labels it, e.g. "40" or "40.5". */
  value: string;
  /** The same size in other systems, e.g. { uk: "6.5", us: "7.5" }. */
  mapping: Record<string, string>;
}

/** Spec "Product". blp and shop are computed at serialization. */
export interface ProductRecord {
  id: number;
  name: string;
  sku_id: number;
  shop_id: number;
  category_id: number;
  availability: string;
  click_url: string;
  shop_uid: string;
  expenses: number | null;
  web_uri: string;
  sizes: ProductSize[];
  price: number;
  immediate_pickup: boolean;
  color: string;
  /** Days until available; 0 means immediate (the availability filter). */
  availabilityDays: number;
}

/** Spec "Specification and group": a specification definition of a leaf category. */
export interface SpecificationRecord {
  id: number;
  name: string;
  order: number;
  unit: string;
  groupId: number;
  categoryId: number;
}

export interface SpecGroupRecord {
  id: number;
  name: string;
  order: number;
}

/** Spec "Filter group". */
export interface FilterGroupRecord {
  id: number;
  name: string;
  active: boolean;
  category_id: number;
  created_at: string | null;
  updated_at: string | null;
  hint: string;
  combined: boolean;
  /** 0 Price, 1 Keyword, 2 Spec, 3 Synced Spec, 4 Custom Range, 5 Sizes. */
  filter_type: number;
  /** Filters of this group: id -> label (the keys of available_filters.filters). */
  filters: ReadonlyMap<number, string>;
}

/** Spec "SKU review" (stored fields; voted, flagged, helpful and own_review are per user). */
export interface SkuReviewRecord {
  id: number;
  sku_id: number;
  user_id: number;
  /** null: a rating-only review (variant rating-only-reviews). */
  review: string | null;
  rating: number;
  created_at: string;
  demoted: boolean;
  votes_count: number;
  helpful_votes_count: number;
  sentiments: { positive?: string[]; mediocre?: string[]; negative?: string[] };
  /** Answers chosen in the review form. */
  answerIds: number[];
  /** ms since the epoch, for ordering. */
  createdMs: number;
  /** Awaiting moderation (variant reviews-moderated): shown demoted, not yet in the SKU's counts. */
  pending?: boolean;
}

/** Spec "SKU review vote". */
export interface VoteRecord {
  id: number;
  sku_review_id: number;
  user_id: number;
  helpful: boolean;
  created_at: string;
}

/** Spec "Flag record". */
export interface FlagRecord {
  id: number;
  flaggable_id: number;
  flaggable_type: string;
  user_id: number;
  reason: string;
  created_at: string;
  updated_at: string;
}

/** Spec "Flag (reason catalogue)". */
export interface FlagReason {
  reason: string;
  description: string;
}

/** A review-form question (spec "Review form"). */
export interface ReviewQuestionRecord {
  text: string;
  type: 'profiling_multiple' | 'eval_sentiment';
  answers: { id: number; text: string }[];
}

export interface EmailNotificationSetting {
  field: 'notifications' | 'mail_events' | 'sku_review_email' | 'shop_review_email' | 'smart_cart_email';
  label: string;
  description: string;
  enabled: boolean;
}

/** Spec "User". Mutable: PATCH /user changes it. */
export interface UserRecord {
  id: number;
  username: string;
  type: string;
  sex: 'male' | 'female' | null;
  /** null: no avatar (variant user-without-avatar). */
  avatar: string | null;
  created_at: string;
  email: string;
  birthyear: number | null;
  mobile: string | null;
  stats: { sku_review_count: number; shop_review_count: number; sku_comment_count: number; received_votes: number };
  email_notifications: EmailNotificationSetting[];
  is_staff: boolean;
  resend_verification_email: boolean;
  /** null: outside the loyalty scheme (variant user-outside-loyalty). */
  loyalty_tier_level: number | null;
  total_acquired_points: number | null;
}

/** Spec "User address". */
export interface AddressRecord {
  id: number;
  /** null: made outside the API without one (variant address-made-elsewhere). */
  label: string | null;
  first_name: string;
  last_name: string;
  street_name: string;
  street_number: string;
  city: string;
  zip: string;
  region: string;
  phone: string | null;
  mobile: string | null;
  lng: string | null;
  lat: string | null;
  userId: number;
}

export interface SavedOrderLineItem {
  name: string;
  quantity: number;
  price: number;
  image: string | null;
  sku_id: number | null;
  product_id: number | null;
  category_id: number | null;
}

/** Spec "Saved order". */
export interface SavedOrderRecord {
  date: string;
  products_cost: number;
  shipping_cost: number;
  total_cost: number;
  line_items: SavedOrderLineItem[];
  shop_id: number;
  order_code: string;
  userId: number;
}

/** Spec "Personalization". Mutable: PUT /personalization changes it. */
export interface PersonalizationRecord {
  location: {
    address_id: number | null;
    label: string;
    lat: string;
    lng: string;
    type: 'address' | 'quick_address';
    country_code: string;
  };
  payment_method: { type: string };
}

/** Spec "Favorite list" (custom and auto lists; the owned list is virtual). */
export interface FavoriteListRecord {
  /** Negative for auto lists. */
  id: number;
  name: string;
  category_id: number | null;
  type: 'custom' | 'auto';
  userId: number;
  createdMs: number;
}

/** Spec "Favorite". */
export interface FavoriteRecord {
  id: number;
  have_it: boolean | null;
  user_id: number;
  user_notes: string | null;
  sku_id: number;
  created_at: string;
  updated_at: string;
  get_absolute_threshold: string | null;
  favorite_list_id: number | null;
  createdMs: number;
}

export type NotificationEtype =
  'price_drop' | 'price_up' | 'availability_true' | 'availability_false' | 'sku_release' | 'sku_review' | 'sku_review_rephrase_request' | 'sku_review_approve_after_update';

/** Spec "Notification" (stored fields; sku, category_name and user are embedded by etype). */
export interface NotificationRecord {
  id: number;
  etype: NotificationEtype;
  eventable_id: number;
  eventable_type: string;
  eventable_name: string;
  eventable_url: string;
  event_text: string | null;
  snapshot: { price_min: number; latest_price: number; change_rate: number; from_threshold: boolean };
  is_viewed: boolean;
  aggregated: boolean;
  created_at: string;
  updated_at: string;
  /** The SKU the event is about (embedded for the etypes the Events section names). */
  skuId: number | null;
  /** The category the SKU was in when the event happened, where it differs from the SKU's present one (variant notification-category-gone). */
  categoryId?: number;
  /** sku_review: the review's rating, text and author. */
  reviewRating: number | null;
  reviewText: string | null;
  reviewUserId: number | null;
  userId: number;
  createdMs: number;
}

/** One point of a price history series. */
export interface PricePoint {
  /** YYYY-MM-DD */
  date: string;
  price: number;
}
