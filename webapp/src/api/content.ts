/**
 * Typed calls of the content area (docs/API.md, "App start" and "Discover, ..."): the
 * carousel, discover and live-highlights videos, the daily video allowance and same city; and
 * the two account calls of the video area's invitation code (/user/index, /user/bindProUser).
 * Ids are strings: they exceed JavaScript's exact integers.
 */
import { api, type ApiClient, type RequestOptions } from './client';

/** Code of `/user/checkVideoCount` when a non-activated account used today's free videos. */
export const VIDEO_LIMIT_CODE = 1501;

export interface ContentPage<T> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
  pages: number;
}

export interface Banner {
  id: string;
  title: string;
  image: string;
  link: string;
  sort: number;
}

export interface Video {
  id: string;
  kind: 'find' | 'passionate';
  title: string;
  cover: string;
  /** Discover videos come without it: `/user/checkVideoCount` hands it out. */
  url?: string;
  duration: number;
  /** The account the jump-to-conversation button opens ("0" when none). */
  chatUserId: string;
  createdAt: number;
}

export interface VideoAllowance {
  isActivation: number;
  unlimited: boolean;
  limit: number;
  used: number;
  remaining: number;
  counted: boolean;
  video: Video | null;
}

export interface City {
  id: string;
  name: string;
  count: number;
}

export interface Listing {
  id: string;
  cityId: string;
  city: string;
  name: string;
  age: number;
  photos: string[];
  intro: string;
  certified: number;
  depositPaid: number;
}

export interface UserIndex {
  userId: string;
  username: string;
  nickName: string;
  isActivation: number;
  customerId: string;
  inviteCode: string;
  superiorBound: boolean;
}

export interface PageRequest {
  page?: number;
  pageSize?: number;
}

export function createContentApi(client: ApiClient = api) {
  return {
    carousel: (options?: RequestOptions) => client.request<Banner[]>('/indexCarousel', {}, options),
    findVideos: ({ page = 1, pageSize = 10 }: PageRequest = {}, options?: RequestOptions) =>
      client.request<ContentPage<Video>>('/getFindVideo', { page, pageSize }, options),
    highlightVideos: ({ page = 1, pageSize = 10 }: PageRequest = {}, options?: RequestOptions) =>
      client.request<ContentPage<Video>>('/getPassionateVideo', { page, pageSize }, options),
    /** Without a video: today's allowance. With one: counts the view and answers its url. */
    checkVideoCount: (videoId?: string, options?: RequestOptions) =>
      client.request<VideoAllowance>('/user/checkVideoCount', videoId ? { videoId } : {}, options),
    cities: (options?: RequestOptions) => client.request<City[]>('/getCityList', {}, options),
    listings: (city: string, { page = 1, pageSize = 10 }: PageRequest = {}, options?: RequestOptions) =>
      client.request<ContentPage<Listing>>('/sameCityList', { city, page, pageSize }, options),
    userIndex: (options?: RequestOptions) => client.request<UserIndex>('/user/index', {}, options),
    /** Binds the superior by its `pro_` invite code (once per account). */
    bindInviteCode: (inviteCode: string, options?: RequestOptions) =>
      client.request<unknown>('/user/bindProUser', { inviteCode }, options),
  };
}

export type ContentApi = ReturnType<typeof createContentApi>;

export const contentApi: ContentApi = createContentApi();
