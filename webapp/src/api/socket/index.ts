export * from './protocol';
export * from './socket';
export * from './types';
