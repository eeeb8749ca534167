import { ArgsType, Field, Int, ObjectType, type ClassType } from 'type-graphql';

@ArgsType()
export class PageArgs {
  @Field(() => Int, { nullable: true, description: '1-based page number (default 1).' })
  page?: number | null;

  @Field(() => Int, { nullable: true, description: 'Items per page: default 25, at most 50.' })
  pageSize?: number | null;
}

/** `Page<T>` as a GraphQL type: `@ObjectType() class UserPage extends PageOf(UserType) {}`. */
export function PageOf<T extends object>(item: ClassType<T>) {
  @ObjectType()
  abstract class PageClass {
    @Field(() => Int, { description: 'Total number of items.' })
    count!: number;

    @Field(() => Int)
    page!: number;

    @Field(() => Int)
    pageSize!: number;

    @Field(() => Int, { description: 'Number of reachable pages.' })
    pageCount!: number;

    @Field(() => [item])
    items!: T[];
  }
  return PageClass;
}
