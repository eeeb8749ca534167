import { Field, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { PageOf } from '../../graphql/pagination.js';
import { Browser } from './browser-mapping.entity.js';

registerEnumType(Browser, { name: 'Browser', description: 'Another browser whose extensions map to add-ons here.' });

@ObjectType('BrowserMapping', { description: 'An extension of another browser and the add-on that replaces it here.' })
export class BrowserMappingType {
  @Field(() => Browser)
  browser!: Browser;

  @Field({ description: "The other browser's extension id." })
  extensionId!: string;

  @Field({ description: 'The id (guid) of the add-on that replaces it.' })
  addonGuid!: string;
}

@ObjectType('BrowserMappingPage', { description: 'Pages of 100 items by default and at most.' })
export class BrowserMappingPageType extends PageOf(BrowserMappingType) {}

@InputType('BrowserMappingInput')
export class BrowserMappingInputType {
  @Field(() => Browser)
  browser!: Browser;

  @Field({ description: "The other browser's extension id (at most 255 characters)." })
  extensionId!: string;

  @Field({ description: "The add-on's id, slug or guid." })
  addon!: string;
}
