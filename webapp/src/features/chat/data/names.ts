import type { FullUserItem } from '../../../api/socket/types';
import { firstText } from './text';

/** How a friend is shown: my remark, else their nickname. */
export function friendName(f: FullUserItem): string {
  return firstText(f.friendInfo?.remark, f.friendInfo?.nickname, f.publicInfo?.nickname);
}
