/** Typed calls of the notices (httpapi/notices.go): list with read state, read one, read all. */
import { api } from './client';

export interface Notice {
  id: string;
  title: string;
  content: string;
  createdAt: number;
  updatedAt?: number;
  /** 0 unread, 1 read. */
  read: number;
}

export interface NoticePage {
  list: Notice[];
  total: number;
  page: number;
  pageSize: number;
  pages: number;
  unread: number;
}

export const noticesApi = {
  list: (page: number, pageSize: number, signal?: AbortSignal) =>
    api.request<NoticePage>('/user/noticeList', { page, pageSize }, { signal }),
  readOne: (id: string) => api.request<{ notice: Notice; unread: number }>('/user/readOne', { id }),
  readAll: () => api.request<{ marked: number; unread: number }>('/user/readAll'),
};
